import type { Expression, LiteralTerm, SelectQuery, VariableTerm } from 'sparqljs';
import type { Attribute } from '../../mapping/model.js';
import { XSD, XSD_DECIMAL, XSD_DOUBLE, XSD_STRING } from '../../rdf/vocabulary.js';
import { filter, integer, literal, op, values, variable } from '../../sparql/ast.js';
import { comparableValue, exactDoubleText, textConstant } from '../../sparql/comparable.js';
import { keyLike } from '../../sparql/text-key.js';
import type { Row } from '../store.js';

/*
 * Engines differ in ways that change answers (docs/operations.md, "The engine check at start-up"): how text orders
 * and compares, how many digits a number keeps, which decimals they hold. The server owns what it
 * can, whatever the engine: every comparison is on a value it chose (sparql/comparable.ts), and
 * numbers are read through STR. What it cannot own is how the engine orders and compares the text
 * and typed values it is given. So at start-up it asks the store a few constant questions, each
 * in the very form its own queries take (a sort key of comparableValue, a cursor's FILTER against
 * a textConstant, a double read by exactDoubleText), over VALUES only: no data is read.
 */

/** One of the questions. */
export type EngineCheckName =
  | 'text-order'
  | 'text-compare'
  | 'date-order'
  | 'number-order'
  | 'double-text'
  | 'decimal-text';

/** What the store answered to one question, and what it means for the server's promises. */
export interface EngineFinding {
  readonly check: EngineCheckName;
  /** The answer is the one the server's promise needs. */
  readonly holds: boolean;
  /** What the store did, in words: `code point`, `UTF-16 code units`, `15 digits after the point`… */
  readonly found: string;
  /**
   * `warning`: a promise of the README does not hold on this engine (the text says which);
   * `limit`: the store holds less than it was given (a loss at load, documented per store), which
   * the server shows as the store holds it; `ok`: nothing to say.
   */
  readonly severity: 'ok' | 'limit' | 'warning';
  /** For `limit` and `warning`: what users of this engine will see. */
  readonly consequence?: string;
  /** The engine's answer differs from the promise, and the server owns it: how. */
  readonly owned?: string;
}

// Probe attributes: the sort keys and comparisons of comparable.ts are chosen by an attribute's datatype.
const probe = (datatype?: string): Attribute => ({
  name: 'probe',
  predicate: 'urn:sparql-jsonapi:probe',
  many: false,
  ...(datatype && { datatype }),
});
const XSD_DATE_TIME = `${XSD}dateTime`;
const TEXT = probe();
const DECIMAL = probe(XSD_DECIMAL);
const DATE_TIME = probe(XSD_DATE_TIME);

/**
 * Texts whose orders tell the usual engines apart: by code point (the promise), by UTF-16 code
 * unit (Java and JavaScript strings: U+FF01 after U+1F600's surrogates), or by a locale's
 * collation (case and accents second, spaces ignored). In several of the forms a store holds
 * text in: plain, language-tagged, typed xsd:string.
 */
const TEXTS: readonly LiteralTerm[] = [
  literal('B'),
  literal('a', XSD_STRING),
  literal('a b', 'en'),
  literal('ab'),
  literal('b', 'en'),
  literal('e\u0301'),
  literal('z', 'fr'),
  literal('é'),
  literal('Ω', 'el'),
  literal('\uFF01'),
  literal('\u{1F600}'),
];

/** Code point order: what the README promises for text (docs/api.md, sorting). */
function byCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}
const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Names the order of `texts` as answered: by code point, by UTF-16 code unit, or another. */
function textOrderName(answered: readonly string[], texts: readonly string[]): string {
  const same = (order: readonly string[]) => order.every((t, i) => answered[i] === t);
  if (answered.length !== texts.length) return `${answered.length} of ${texts.length} texts`;
  if (same([...texts].sort(byCodePoint))) return 'code point';
  if (same([...texts].sort(byCodeUnit))) return 'UTF-16 code units';
  return `another order (${answered.map((t) => JSON.stringify(t)).join(' < ')}): a locale's collation?`;
}

const T = variable('t');
const N = variable('n');
const select = (variables: VariableTerm[], where: SelectQuery['where'], order?: Expression): SelectQuery => ({
  type: 'query',
  queryType: 'SELECT',
  prefixes: {},
  variables,
  where,
  ...(order && { order: [{ expression: order }] }),
});

/** The texts in the engine's order of a text sort key. */
const textOrderQuery = (): SelectQuery => select([T], [values(TEXTS.map((t) => ({ t })))], comparableValue(TEXT, T));

/**
 * Every ordered pair of texts (by number), and which of them a cursor's FILTER finds below the
 * other: `STR(?t) < "constant"`, both text keys, with the constant written as keyset-clause writes it.
 */
const TEXT_KEY = comparableValue(TEXT, T);
const PAIRS = TEXTS.flatMap((a, i) => TEXTS.flatMap((b, j) => (i === j ? [] : [[a, b] as const])));
const textCompareQuery = (): SelectQuery =>
  select(
    [N],
    [
      values(PAIRS.map(([a], n) => ({ n: integer(n), t: a }))),
      filter(
        PAIRS.map(([, b], n) =>
          op('&&', op('=', N, integer(n)), op('<', TEXT_KEY, keyLike(TEXT_KEY, textConstant(b.value)))),
        ).reduce((all, one) => op('||', all, one)),
      ),
    ],
  );

/** Instants in three zones, in the order of their values (the lexical order differs). */
const INSTANTS = ['2019-12-31T22:00:00Z', '2020-01-01T00:30:00+02:00', '2019-12-31T23:00:00Z'];
const dateOrderQuery = (): SelectQuery =>
  select([T], [values(INSTANTS.map((d) => ({ t: literal(d, XSD_DATE_TIME) })))], comparableValue(DATE_TIME, T));

/** Numbers in several forms (a number attribute's values may be plain text), in numeric order. */
const NUMBERS: readonly [LiteralTerm, number][] = [
  [literal('-0.5', XSD_DECIMAL), -0.5],
  [literal('9'), 9],
  [literal('0101'), 101],
  [literal('10', `${XSD}integer`), 10],
  [literal('1e2', XSD_DOUBLE), 100],
  [literal('1000000000000000000000000', XSD_DECIMAL), 1e24],
];
const numberOrderQuery = (): SelectQuery =>
  select([N], [values(NUMBERS.map(([t], n) => ({ n: integer(n), t })))], comparableValue(DECIMAL, T));

/** Doubles that need all 17 significant digits: the engine's text of each, read as the server reads doubles. */
const DOUBLES = ['0.30000000000000004', '1.2089258196146292e+24', '-1.6021765314e-19'];
const E = variable('e');
const doubleTextQuery = (): SelectQuery => ({
  ...select([], [values(DOUBLES.map((d) => ({ t: literal(d, XSD_DOUBLE) })))]),
  variables: [T, { expression: exactDoubleText(T), variable: E }],
});

/** Decimals past 15 digits after the point, and past 2^64: kept whole, or rounded. */
const DECIMALS = ['0.028316846592000004', '12345678901234567890123.5'];
const decimalTextQuery = (): SelectQuery => ({
  ...select([], [values(DECIMALS.map((d) => ({ t: literal(d, XSD_DECIMAL) })))]),
  variables: [{ expression: op('str', T), variable: E }],
});

const text = (row: Row, name = 't') => row[name]?.value ?? '';
const sameList = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Each question: its query; what its rows say (`holds`, and what was found); and, when it does
 * not hold, what users of the engine will see, as a warning or, for a `limit`, as information.
 */
interface Check {
  readonly check: EngineCheckName;
  readonly query: () => SelectQuery;
  readonly read: (rows: Row[]) => { holds: boolean; found: string };
  readonly consequence: (found: string) => string;
  readonly severity?: 'limit';
}

const CHECK_LIST: readonly Check[] = [
  {
    check: 'text-order',
    query: textOrderQuery,
    read: (rows) => {
      const found = textOrderName(
        rows.map((r) => text(r)),
        TEXTS.map((t) => t.value),
      );
      return { holds: found === 'code point', found };
    },
    consequence: (found) =>
      `lists sorted by text come in the engine's order (${found}), not by Unicode code point as on other engines`,
  },
  {
    check: 'text-compare',
    query: textCompareQuery,
    read: (rows) => {
      const below = new Set(rows.map((r) => Number(text(r, 'n'))));
      const answered = (order: (a: string, b: string) => number) =>
        PAIRS.every(([a, b], n) => below.has(n) === order(a.value, b.value) < 0);
      const found = answered(byCodePoint) ? 'code point' : answered(byCodeUnit) ? 'UTF-16 code units' : 'another order';
      return { holds: found === 'code point', found };
    },
    consequence: (found) =>
      `filters on text and the cursors of lists sorted by text compare in the engine's order (${found}), not by Unicode code point; where it differs from the engine's sort order, cursor pages skip or repeat members`,
  },
  {
    check: 'date-order',
    query: dateOrderQuery,
    read: (rows) => {
      const answered = rows.map((r) => text(r));
      const holds = sameList(answered, INSTANTS);
      return { holds, found: holds ? 'by value' : answered.join(' < ') };
    },
    consequence: () => 'lists sorted by a date or time with time zones are not in the order of their instants',
  },
  {
    check: 'number-order',
    query: numberOrderQuery,
    read: (rows) => {
      const answered = rows.map((r) => NUMBERS[Number(text(r, 'n'))]?.[0].value);
      const holds = sameList(
        answered,
        [...NUMBERS].sort((a, b) => a[1] - b[1]).map(([t]) => t.value),
      );
      return { holds, found: holds ? 'by value' : answered.join(' < ') };
    },
    consequence: () => 'lists sorted by a number are not in numeric order',
  },
  {
    check: 'double-text',
    query: doubleTextQuery,
    read: (rows) => {
      // The server adds the engine's STR() of a double and the rest (execute/rows.ts): exact everywhere?
      const sums = rows.map((r) =>
        text(r, 'e')
          .split(' ')
          .map(Number)
          .reduce((a, b) => a + b, 0),
      );
      const holds = sameList(sums, DOUBLES.map(Number));
      const shown = (name: string) => rows.map((r) => text(r, name)).join(', ');
      return { holds, found: holds ? `exact (results write ${shown('t')})` : shown('e') };
    },
    consequence: () => 'doubles may be shown with fewer digits than the store holds',
  },
  {
    check: 'decimal-text',
    query: decimalTextQuery,
    read: (rows) => {
      const answered = rows.map((r) => text(r, 'e'));
      const holds = sameList(answered, DECIMALS);
      return {
        holds,
        found: holds ? 'exact' : DECIMALS.map((d, i) => `${d} held as ${answered[i] ?? 'nothing'}`).join(', '),
      };
    },
    consequence: () =>
      'decimals are held (and so shown, sorted and filtered) with the digits this store keeps: the README says what each store changes at load',
    severity: 'limit',
  },
];

/** Each question: its query, and what its rows mean for the server's promises. */
export const CHECKS: readonly {
  check: EngineCheckName;
  query: () => SelectQuery;
  read: (rows: Row[]) => EngineFinding;
}[] = CHECK_LIST.map(({ check, query, read, consequence, severity = 'warning' as const }) => ({
  check,
  query,
  read: (rows): EngineFinding => {
    const { holds, found } = read(rows);
    return holds
      ? { check, holds, found, severity: 'ok' as const }
      : { check, holds, found, severity, consequence: consequence(found) };
  },
}));
