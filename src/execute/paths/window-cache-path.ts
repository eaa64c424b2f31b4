import type { AccessPath, PathContext, PathOutcome } from './access-path.js';

/**
 * The `window-cache` path ("served from the kept list"): the page cut from the whole ordered list
 * the dataset keeps (`PathContext.kept`, which the app gives when the dataset keeps lists). While
 * the list is not kept (being read in the background, too big, cut short, its read failed), or a
 * cursor's member is not in it, the path falls back: its declared fallback reads the page from
 * the store, as the server without caches does.
 *
 * @example await readWindowCache(path, context)
 */
export async function readWindowCache(
  path: Extract<AccessPath, { kind: 'window-cache' }>,
  context: PathContext,
): Promise<PathOutcome> {
  const found = context.kept
    ? await context.kept.cut(path.read, path.query, context)
    : ({ kind: 'not-kept', why: 'the dataset keeps no lists' } as const);
  if (found.kind === 'cut') return { kind: 'read', read: found.read };
  return {
    kind: 'fall-back',
    because:
      found.kind === 'not-in-list' ? 'a cursor is not in the cached list' : `the list is not kept (${found.why})`,
  };
}
