import type { AccessPath, PathContext, PathRead, StorePath } from './access-path.js';
import { readHistogram } from './histogram-path.js';
import { readKeyedWindow } from './keyed-window-path.js';
import { readKeyset } from './keyset-path.js';
import { readListQuery } from './list-query-path.js';
import { readRelatedList } from './related-list-path.js';
import { readRelatedPage } from './related-page-path.js';
import { readWindowCache } from './window-cache-path.js';

/**
 * Runs a planned access path (`plan-list-read.ts`) by its module, and records it in the
 * request's trace. The module runs the path's queries and, where it has one, its fallback; no
 * module hands back to be read another way.
 *
 * @example await readList(planListRead(mapping, read, traits), context)
 */
export function readList(path: AccessPath, context: PathContext): Promise<PathRead> {
  context.trace.step(path.kind, path.why);
  return path.kind === 'window-cache' ? readWindowCache(path, context, runStorePath) : runStorePath(path, context);
}

/** A store path by its module (`counted`: the total the step before read); a fallback's step is recorded by the module that falls back. */
function runStorePath(path: StorePath, context: PathContext, counted?: number): Promise<PathRead> {
  switch (path.kind) {
    case 'histogram':
      return readHistogram(path, context, runStorePath);
    case 'related-page':
      return readRelatedPage(path, context, runStorePath);
    case 'related-list':
      return readRelatedList(path, context);
    case 'keyed-window':
      return readKeyedWindow(path, context, counted);
    case 'list-query':
      return readListQuery(path, context, counted);
    case 'keyset':
      return readKeyset(path, context, counted);
  }
}
