/**
 * The questions the engine check (`engine-check.ts`) asks a store at start-up, and what each
 * answer means: text questions in `text-questions.ts`, typed values in `value-questions.ts`.
 *
 * Engines differ in ways that change answers (docs/operations.md, "The engine check at start-up"): how text orders
 * and compares, how many digits a number keeps, which decimals they hold. The server owns what it
 * can, whatever the engine: every comparison is on a value it chose (sparql/comparable.ts), and
 * numbers are read through STR. What it cannot own is how the engine orders and compares the text
 * and typed values it is given. So at start-up it asks the store a few constant questions, each
 * in the very form its own queries take (a sort key of comparableValue, a cursor's FILTER against
 * a textConstant, a double read by exactDoubleText), over VALUES only: no data is read.
 */
import type { SelectQuery } from 'sparqljs';
import type { Row } from '../store.js';
import type { EngineCheckName } from './engine-question.js';
import { TEXT_QUESTIONS } from './text-questions.js';
import { VALUE_QUESTIONS } from './value-questions.js';

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

/** Each question: its query, and what its rows mean for the server's promises. */
export const CHECKS: readonly {
  check: EngineCheckName;
  query: () => SelectQuery;
  read: (rows: Row[]) => EngineFinding;
}[] = [...TEXT_QUESTIONS, ...VALUE_QUESTIONS].map(
  ({ check, query, read, consequence, severity = 'warning' as const }) => ({
    check,
    query,
    read: (rows): EngineFinding => {
      const { holds, found } = read(rows);
      return holds
        ? { check, holds, found, severity: 'ok' as const }
        : { check, holds, found, severity, consequence: consequence(found) };
    },
  }),
);
