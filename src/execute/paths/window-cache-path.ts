import type { AccessPath, PathContext, PathRead, RunPath } from './access-path.js';

/**
 * The `window-cache` path: the page cut from the whole ordered list the dataset keeps
 * (`PathContext.kept`, which the app gives when the dataset keeps lists); the path's fallback
 * reads the page from the store when the list is not kept, or a cursor's member is not in it.
 *
 * @example await readWindowCache(path, context, readList)
 */
export async function readWindowCache(
  path: Extract<AccessPath, { kind: 'window-cache' }>,
  context: PathContext,
  run: RunPath,
): Promise<PathRead> {
  const found = context.kept ? await context.kept.cut(path.read, path.query, context) : { kind: 'not-kept' as const };
  if (found.kind === 'cut') return found.read;
  const { fallback } = path;
  const why =
    found.kind === 'not-in-list'
      ? 'a cursor is not in the cached list'
      : 'the list cannot be kept (too big, cut short, or changing faster than it is read)';
  context.trace.step(fallback.kind, `${why}: ${fallback.why}`, true);
  return run(fallback, context);
}
