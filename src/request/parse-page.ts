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
 * - `offset`: offset pagination, in the form the request used: `page[number]` (0-based, as
 *   mu-cl-resources) of `size` resources, or (`form: 'offset'`) `page[limit]` resources from
 *   `page[offset]` on, as JSON:API's recommendation and Orbit have it; links keep the form;
 * - `cursor`: the cursor pagination profile, `size` resources after and/or before a cursor
 *   (still opaque here; `cursor.ts` decodes it against the sort), or, when the profile is asked
 *   for with `page[number]`, from `skip` resources on: a jump into the list that then goes on by cursor.
 */
export type PageRequest =
  | { readonly kind: 'offset'; readonly number: number; readonly size: number }
  | { readonly kind: 'offset'; readonly form: 'offset'; readonly offset: number; readonly size: number }
  | {
      readonly kind: 'cursor';
      readonly size: number;
      readonly after?: string;
      readonly before?: string;
      readonly skip?: number;
    };

/** An offset page, in either form. */
export type OffsetPage = Extract<PageRequest, { kind: 'offset' }>;

/**
 * How many resources of the list an offset page skips.
 *
 * @example pageStart({ kind: 'offset', number: 2, size: 20 }) // 40
 * @example pageStart({ kind: 'offset', form: 'offset', offset: 7, size: 20 }) // 7
 */
export function pageStart(page: OffsetPage): number {
  return 'form' in page ? page.offset : page.number * page.size;
}

/** The two forms of offset pagination, by their parameters. */
const NUMBER_FORM = ['number', 'size'];
const OFFSET_FORM = ['offset', 'limit'];

/**
 * Reads the `page` family. Without cursors it is offset pagination, page 0 of the default size,
 * unless the client asked for the cursor pagination profile (`{ cursorProfile: true }`): then it is the
 * first cursor page. A range (`page[after]` and `page[before]`) defaults to the maximum size, as
 * the profile says. `page[offset]`/`page[limit]` are offset pagination only: mixed with
 * `page[number]`/`page[size]`, with a cursor, or with the profile, they are a 400.
 *
 * @example parsePage([{ name: 'page[number]', members: ['number'], value: '2' }], DEFAULT_PAGE_LIMITS) // { kind: 'offset', number: 2, size: 20 }
 * @example parsePage([{ name: 'page[offset]', members: ['offset'], value: '5' }], DEFAULT_PAGE_LIMITS) // { kind: 'offset', form: 'offset', offset: 5, size: 20 }
 */
export function parsePage(
  parameters: readonly FamilyParameter[],
  limits: PageLimits,
  { cursorProfile = false }: { cursorProfile?: boolean } = {},
): PageRequest {
  const raw = new Map(parameters.map((p) => [p.members[0]!, p.value]));
  const offsetForm = parameters.filter((p) => OFFSET_FORM.includes(p.members[0]!));
  if (offsetForm.length > 0) return offsetFormPage(parameters, raw, offsetForm, { limits, cursorProfile });
  const sizeValue = raw.get('size');
  const range = raw.has('after') && raw.has('before');
  const size = pageSize('page[size]', sizeValue, range ? limits.maxSize : limits.defaultSize, limits);
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
  const number = numberValue === undefined ? 0 : integer('page[number]', numberValue, 0, ' (pages count from 0)');
  if (number * size > MAX_OFFSET) {
    // Exact products in the message, however many digits the client sent.
    const skipped = BigInt(numberValue!) * BigInt(size);
    throw badParameter(
      'page[number]',
      `page[number] ${BigInt(numberValue!)} of ${size} skips ${skipped} resources; at most ${MAX_OFFSET} can be skipped (follow cursors beyond).`,
    );
  }
  // With the profile, page[number] jumps into the list; the page's cursors go on from there.
  if (cursorProfile) return { kind: 'cursor', size, ...(number > 0 && { skip: number * size }) };
  return { kind: 'offset', number, size };
}

/**
 * `page[offset]` and `page[limit]`, alone: nothing of another form of pagination beside them.
 * `raw` is every page member's value; once the checks pass, those are the offset form's only.
 */
function offsetFormPage(
  parameters: readonly FamilyParameter[],
  raw: ReadonlyMap<string, string>,
  offsetForm: readonly FamilyParameter[],
  { limits, cursorProfile }: { limits: PageLimits; cursorProfile: boolean },
): PageRequest {
  const given = offsetForm.map((p) => p.name).join(' and ');
  const numberForm = parameters.find((p) => NUMBER_FORM.includes(p.members[0]!));
  if (numberForm) {
    // Name whichever came second: the one that conflicts with what the request had already said.
    const second = parameters.indexOf(numberForm) > parameters.indexOf(offsetForm[0]!) ? numberForm : offsetForm[0]!;
    throw badParameter(
      second.name,
      `${numberForm.name} (page[number]/page[size] pagination) cannot be combined with ${given} (page[offset]/page[limit] pagination); use one pair.`,
    );
  }
  if (parameters.length > offsetForm.length)
    throw badParameter(
      offsetForm[0]!.name,
      `${given} (offset pagination) cannot be combined with page[after] or page[before] (cursor pagination, which takes page[size]).`,
    );
  if (cursorProfile)
    throw badParameter(
      offsetForm[0]!.name,
      `With the cursor pagination profile, pages take page[size] and start at a cursor or a page[number]; ${given} are offset pagination.`,
    );
  const size = pageSize('page[limit]', raw.get('limit'), limits.defaultSize, limits);
  const offsetValue = raw.get('offset');
  const offset =
    offsetValue === undefined ? 0 : integer('page[offset]', offsetValue, 0, ' (the number of resources to skip)');
  if (offset > MAX_OFFSET)
    throw badParameter(
      'page[offset]',
      `page[offset] ${BigInt(offsetValue!)} skips more than ${MAX_OFFSET} resources, the most that can be skipped (follow cursors beyond).`,
    );
  return { kind: 'offset', form: 'offset', offset, size };
}

/** `page[size]` or `page[limit]`: a positive integer up to the dataset's maximum. */
function pageSize(parameter: string, value: string | undefined, fallback: number, limits: PageLimits): number {
  const size = value === undefined ? fallback : integer(parameter, value, 1);
  if (size > limits.maxSize) {
    throw new JsonApiError(
      400,
      'Page size requested is too large',
      `${parameter} is ${BigInt(value!)}, but ${limits.maxSize} is the maximum.`,
      {
        source: { parameter },
        // The cursor pagination profile's max-size error. Its `links.type` is left out: the JSON:API
        // response schema allows only `about` in an error's links.
        meta: { page: { maxSize: limits.maxSize } },
      },
    );
  }
  return size;
}

/**
 * Digits only: never a float, a sign or a space. Any number of them: a number too large to be
 * exact here (`9007199254740993`, `1e30` digits long) is still larger than any limit, so the
 * caller's limit check names it rather than calling it no integer; messages print the digits
 * the client sent (as a BigInt), not the rounded double.
 */
function integer(parameter: string, value: string, min: 0 | 1, hint = ''): number {
  const number = /^[0-9]+$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= min)) {
    throw badParameter(
      parameter,
      `${parameter} must be ${min === 0 ? 'a non-negative' : 'a positive'} integer${hint}; got '${value}'.`,
    );
  }
  return number;
}
