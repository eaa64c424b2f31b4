import { badParameter, JsonApiError } from '../errors/json-api-error.js';
import type { FamilyParameter } from './parse-query.js';

/** A dataset's page sizes (configuration `page`). */
export interface PageLimits {
  readonly defaultSize: number;
  readonly maxSize: number;
}

export const DEFAULT_PAGE_LIMITS: PageLimits = Object.freeze({ defaultSize: 20, maxSize: 100 });

/** The most resources a page may skip: stores keep OFFSET in 32 bits (2³¹ − 1 on both checked). */
export const MAX_OFFSET = 2 ** 31 - 1;

/**
 * Which page of an ordered list to answer with:
 * - `offset`: `page[number]` (0-based, as mu-cl-resources) of `size` resources;
 * - `cursor`: the cursor pagination profile, `size` resources after and/or before a cursor
 *   (still opaque here; `cursor.ts` decodes it against the sort), or, when the profile is asked
 *   for with `page[number]`, from `skip` resources on: a jump into the list that then goes on by cursor.
 */
export type PageRequest =
  | { readonly kind: 'offset'; readonly number: number; readonly size: number }
  | {
      readonly kind: 'cursor';
      readonly size: number;
      readonly after?: string;
      readonly before?: string;
      readonly skip?: number;
    };

/**
 * Reads the `page` family. Without cursors it is offset pagination, page 0 of the default size,
 * unless the client asked for the cursor pagination profile (`cursorProfile`): then it is the
 * first cursor page. A range (`page[after]` and `page[before]`) defaults to the maximum size, as
 * the profile says.
 *
 * @example parsePage([{ name: 'page[number]', members: ['number'], value: '2' }], DEFAULT_PAGE_LIMITS) // { kind: 'offset', number: 2, size: 20 }
 */
export function parsePage(
  parameters: readonly FamilyParameter[],
  limits: PageLimits,
  cursorProfile = false,
): PageRequest {
  const raw = new Map(parameters.map((p) => [p.members[0]!, p.value]));
  const sizeValue = raw.get('size');
  const range = raw.has('after') && raw.has('before');
  const size =
    sizeValue === undefined
      ? range
        ? limits.maxSize
        : limits.defaultSize
      : positiveInteger('page[size]', sizeValue, 1);
  if (size > limits.maxSize) {
    throw new JsonApiError(
      400,
      'Page size requested is too large',
      `page[size] is ${size}, but ${limits.maxSize} is the maximum.`,
      {
        source: { parameter: 'page[size]' },
        // The cursor pagination profile's max-size error. Its `links.type` is left out: the JSON:API
        // response schema allows only `about` in an error's links.
        meta: { page: { maxSize: limits.maxSize } },
      },
    );
  }
  const after = raw.get('after');
  const before = raw.get('before');
  if (after !== undefined || before !== undefined) {
    if (raw.has('number'))
      throw badParameter(
        'page[number]',
        'page[number] (offset pagination) cannot be combined with page[after] or page[before] (cursor pagination).',
      );
    return { kind: 'cursor', size, ...(after !== undefined && { after }), ...(before !== undefined && { before }) };
  }
  const numberValue = raw.get('number');
  const number = numberValue === undefined ? 0 : positiveInteger('page[number]', numberValue, 0);
  if (number * size > MAX_OFFSET) {
    throw badParameter(
      'page[number]',
      `page[number] ${number} of ${size} skips ${number * size} resources; at most ${MAX_OFFSET} can be skipped (follow cursors beyond).`,
    );
  }
  // With the profile, page[number] jumps into the list; the page's cursors go on from there.
  if (cursorProfile) return { kind: 'cursor', size, ...(number > 0 && { skip: number * size }) };
  return { kind: 'offset', number, size };
}

function positiveInteger(parameter: string, value: string, min: number): number {
  const number = /^[0-9]{1,9}$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= min)) {
    throw badParameter(
      parameter,
      `${parameter} must be ${min === 0 ? 'a non-negative' : 'a positive'} integer${min === 0 ? ' (pages count from 0)' : ''}; got '${value}'.`,
    );
  }
  return number;
}
