import type { ShapeResult } from './results.js';
import type { LatencySummary } from './stats.js';

/**
 * The shapes whose added time has a budget of its own (issue 27): one quick query each, so what
 * the server adds is most of what the client waits for.
 */
export const ADDED_TIME_SHAPES: ReadonlySet<string> = new Set(['single', 'related', 'relationship']);

/** What the server may add to the floor's p50 beyond the bare HTTP hop, for {@link ADDED_TIME_SHAPES}. */
export const ADDED_TIME_SLACK_MS = 0.3;

/** The most server ÷ (floor + bare hop) may be, every shape. */
export const HOP_RATIO_TARGET = 1.3;

/** What the server adds to one shape, against what any server behind an HTTP hop must add. */
export interface Overhead {
  /** Server p50 − floor p50 (ms). */
  readonly addedMs: number;
  /** Server p50 ÷ (floor p50 + bare hop p50); undefined without a hop figure. */
  readonly hopRatio?: number;
  /** Bare hop p50 + {@link ADDED_TIME_SLACK_MS}, for the shapes with an added-time budget that have a hop figure. */
  readonly budgetMs?: number;
}

type Ok = Extract<ShapeResult, { status: 'ok' }>;

/**
 * The server's own cost on one shape, from the sequential p50s of server and floor and the bare
 * hop's p50 (`measure.ts` bareHop); undefined for a shape that sent no query (a page from the
 * window cache: its floor replays nothing).
 *
 * @example overhead(single, { p50: 0.45, … }) // { addedMs: 1.4, hopRatio: 1.55, budgetMs: 0.75 }
 */
export function overhead(shape: Ok, hop: LatencySummary | undefined): Overhead | undefined {
  const { server, floor, queries } = shape.sequential;
  if (queries.max === 0) return undefined;
  const addedMs = server.p50 - floor.p50;
  if (hop === undefined) return { addedMs };
  return {
    addedMs,
    hopRatio: server.p50 / (floor.p50 + hop.p50),
    ...(ADDED_TIME_SHAPES.has(shape.key) && { budgetMs: hop.p50 + ADDED_TIME_SLACK_MS }),
  };
}
