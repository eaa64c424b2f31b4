import type { AccessPath, Counted, PathContext, PathOutcome, PathRead } from './access-path.js';
import { readHistogram } from './histogram-path.js';
import { readKeyedWindow } from './keyed-window-path.js';
import { readKeyset, readKeysetWider } from './keyset-path.js';
import { readListQuery } from './list-query-path.js';
import { readRelatedList } from './related-list-path.js';
import { readRelatedPage } from './related-page-path.js';
import { readWindowCache } from './window-cache-path.js';

/**
 * Runs a planned access path (`plan-list-read.ts`) by its module, and records it in the
 * request's trace. A module that finds it should not go on says so (`fall-back`): this takes the
 * path's declared fallback, the plan's conditional child, records it under its name, and runs it
 * with the count the path read. No module runs another path itself.
 *
 * @example await readList(planListRead(mapping, read, traits), context)
 */
export function readList(path: AccessPath, context: PathContext): Promise<PathRead> {
  context.trace.step(path.kind, path.why);
  return run(path, context);
}

async function run(path: AccessPath, context: PathContext, counted?: Counted): Promise<PathRead> {
  const outcome = await runPath(path, context, counted);
  if (outcome.kind === 'read') return outcome.read;
  if (!('fallback' in path)) throw new Error(`The ${path.kind} path has no fallback to take`);
  const next = path.fallback.path;
  context.trace.step(next.kind, `${outcome.because}: ${next.why}`, { fallback: true });
  return run(next, context, outcome.counted);
}

/** A path by its module (`counted`: the total the step before read, or is reading). */
function runPath(path: AccessPath, context: PathContext, counted?: Counted): Promise<PathOutcome> {
  switch (path.kind) {
    case 'window-cache':
      return readWindowCache(path, context);
    case 'histogram':
      return readHistogram(path, context);
    case 'related-page':
      return readRelatedPage(path, context);
    case 'related-list':
      return readRelatedList(path, context);
    case 'keyed-window':
      return readKeyedWindow(path, context, counted);
    case 'list-query':
      return readListQuery(path, context, counted);
    case 'keyset':
      return readKeyset(path, context, counted);
    case 'keyset-wider':
      return readKeysetWider(path, context, counted);
  }
}
