import { histogramWindow } from '../histogram-window.js';
import { groupValues } from '../rows.js';
import type { PathContext, PathOutcome, StorePath } from './access-path.js';
import { readMembers } from './list-rows.js';

/**
 * The `histogram` path: the window read through the first sort key's histogram
 * (`histogram-window.ts`), with its members' values when the range query brought them. When
 * the histogram says the list should be read another way (too many values, counts that don't
 * add up), it falls back, with the count it read: the executor takes the path's declared fallback.
 *
 * @example await readHistogram(path, context)
 */
export async function readHistogram(
  path: Extract<StorePath, { kind: 'histogram' }>,
  context: PathContext,
): Promise<PathOutcome> {
  const { read, text, guess } = path;
  const { mapping, store, hints } = context;
  const { window, attributes } = read;
  const after = read.keyset?.after;
  const found = await histogramWindow(mapping, read.request, { window, store, text, guess, attributes, after, hints });
  if (found.kind === 'fall-back')
    return {
      kind: 'fall-back',
      because: `the histogram does not give the page: ${found.because}`,
      counted: found.total,
    };
  return {
    kind: 'read',
    read: {
      ...readMembers(read, found.rows),
      total: found.total,
      ...(found.withValues && { values: groupValues(found.rows, found.carried?.name) }),
    },
  };
}
