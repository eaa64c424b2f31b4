/**
 * The engine questions about typed values (`engine-questions.ts`): how dates with time zones and
 * numbers in several forms order, and how many digits doubles and decimals keep.
 */
import type { LiteralTerm, SelectQuery } from 'sparqljs';
import { XSD, XSD_DECIMAL, XSD_DOUBLE } from '../../rdf/vocabulary.js';
import { integer, literal, op, values, variable } from '../../sparql/ast.js';
import { comparableValue, exactDoubleText } from '../../sparql/comparable.js';
import { N, probe, type Question, sameList, select, T, text } from './engine-question.js';

const XSD_DATE_TIME = `${XSD}dateTime`;
const DECIMAL = probe(XSD_DECIMAL);
const DATE_TIME = probe(XSD_DATE_TIME);

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

/** The questions about typed values. */
export const VALUE_QUESTIONS: readonly Question[] = [
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
