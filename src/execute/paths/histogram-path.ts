import { histogramWindow } from '../histogram-window.js';
import { groupValues } from '../rows.js';
import type { PathContext, PathRead, RunPath, StorePath } from './access-path.js';
import { readMembers } from './list-rows.js';

/**
 * The `histogram` path: the window read through the first sort key's histogram
 * (`histogram-window.ts`), with its members' values when the range query brought them. When
 * the histogram says the list should be read another way (too many values, counts that don't
 * add up), the path's fallback reads it, with the count the histogram read.
 *
 * @example await readHistogram(path, context, readList)
 */
export async function readHistogram(
  path: Extract<StorePath, { kind: 'histogram' }>,
  context: PathContext,
  run: RunPath,
): Promise<PathRead> {
  const { read } = path;
  const { mapping, store, trace, hints } = context;
  const { window, attributes } = read;
  const after = read.keyset?.after;
  const found = await histogramWindow(mapping, read.request, {
    window,
    store,
    text: path.text,
    attributes,
    after,
    hints,
  });
  if (found.kind === 'plain') {
    trace.step(path.fallback.kind, `the histogram does not give the page: ${path.fallback.why}`, true);
    return run(path.fallback, context, found.total);
  }
  return {
    ...readMembers(read, found.rows),
    total: found.total,
    ...(found.withValues && { values: groupValues(found.rows, found.carried?.name) }),
  };
}
