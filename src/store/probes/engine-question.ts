/**
 * What an engine question is (`engine-questions.ts` asks them at start-up), and what the
 * questions' queries and readings share: probe attributes, the SELECT they are written as, and
 * how a row's value is read.
 */
import type { Expression, SelectQuery, VariableTerm } from 'sparqljs';
import type { Attribute } from '../../mapping/model.js';
import { variable } from '../../sparql/ast.js';
import type { Row } from '../store.js';

/** One of the questions. */
export type EngineCheckName =
  | 'text-order'
  | 'text-compare'
  | 'date-order'
  | 'number-order'
  | 'double-text'
  | 'decimal-text';

/**
 * Each question: its query; what its rows say (`holds`, and what was found); and, when it does
 * not hold, what users of the engine will see, as a warning or, for a `limit`, as information.
 */
export interface Question {
  readonly check: EngineCheckName;
  readonly query: () => SelectQuery;
  readonly read: (rows: Row[]) => { holds: boolean; found: string };
  readonly consequence: (found: string) => string;
  readonly severity?: 'limit';
}

// Probe attributes: the sort keys and comparisons of comparable.ts are chosen by an attribute's datatype.
export const probe = (datatype?: string): Attribute => ({
  name: 'probe',
  predicate: 'urn:sparql-jsonapi:probe',
  many: false,
  ...(datatype && { datatype }),
});

export const T = variable('t');
export const N = variable('n');
export const select = (variables: VariableTerm[], where: SelectQuery['where'], order?: Expression): SelectQuery => ({
  type: 'query',
  queryType: 'SELECT',
  prefixes: {},
  variables,
  where,
  ...(order && { order: [{ expression: order }] }),
});

/** The text of `row`'s value of `name` (`?t` by default), `''` when unbound. */
export const text = (row: Row, name = 't') => row[name]?.value ?? '';
export const sameList = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);
