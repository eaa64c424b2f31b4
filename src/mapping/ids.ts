import { iriProblem } from './iri.js';
import { decodeLocalId, encodeLocalId, LOCAL_ID_MAX } from './local-id.js';
import type { IdStrategy } from './model.js';

/**
 * Ids are opaque lowercase hexadecimal strings (the spec), except `local` ids (`local-id.ts`).
 * The `predicate` strategy also allows dashes, so that mu-cl-resources' UUIDs (`5a3f…-…`) keep
 * working. Bounded lengths keep a hostile id from growing a query. Exported for the scaffold,
 * which proposes a strategy only when the data's ids fit it.
 */
export const ID_PATTERNS = {
  predicate: /^[0-9a-f](?:[0-9a-f-]{0,127})$/,
  template: /^[0-9a-f]{1,256}$/,
  hex: /^(?:[0-9a-f]{2}){1,2048}$/,
} as const;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }); // ignoreBOM: keep a leading U+FEFF, so that each IRI has one id

/** What a request id stands for: the IRI itself, or (predicate strategy) the literal to look up. */
export type IdLookup =
  | { readonly kind: 'iri'; readonly iri: string }
  | { readonly kind: 'literal'; readonly value: string };

/**
 * Why a request id is no id of its type:
 * - `syntax`: it is not of the strategy's id syntax (uppercase, not hex, too long…)
 * - `iri`: it is, but the IRI it stands for is not one the server accepts (`iri.ts`): its bytes are
 *   not UTF-8, or it holds a character no IRI may hold (U+2028, a C1 control, a lone `%`…)
 */
export interface IdRefusal {
  readonly kind: 'refused';
  readonly reason: 'syntax' | 'iri';
  /** Why, in words for an error detail (it never quotes decoded text). */
  readonly detail: string;
}

/**
 * Maps a request id to what identifies it in the store, or says why it can't be a valid id of the
 * type (the caller answers 404, or 400 for a filter value, without asking the store).
 *
 * @example resolveId({ kind: 'hex', base: 'http://x/c/' }, '4752') // { kind: 'iri', iri: 'http://x/c/GR' }
 * @example resolveId({ kind: 'hex', base: 'http://x/c/' }, '494e4ae280a8').kind // 'refused' (U+2028)
 * @example resolveId({ kind: 'local', base: 'http://x/u/' }, 'm%2Fs') // { kind: 'iri', iri: 'http://x/u/m/s' }
 */
export function resolveId(strategy: IdStrategy, id: string): IdLookup | IdRefusal {
  if (strategy.kind !== 'local' && !ID_PATTERNS[strategy.kind].test(id))
    return { kind: 'refused', reason: 'syntax', detail: `expected ${describeIds(strategy)}` };
  let iri: string;
  switch (strategy.kind) {
    case 'predicate':
      return { kind: 'literal', value: id };
    case 'template':
      iri = strategy.prefix + id + strategy.suffix;
      break;
    case 'hex':
      try {
        iri = strategy.base + utf8.decode(Buffer.from(id, 'hex'));
      } catch {
        return { kind: 'refused', reason: 'iri', detail: 'its bytes are not UTF-8 text' }; // no IRI has this id
      }
      break;
    case 'local': {
      const decoded = decodeLocalId(id);
      if (decoded.kind === 'syntax')
        return { kind: 'refused', reason: 'syntax', detail: `expected ${describeIds(strategy)}` };
      if (decoded.kind === 'not-utf8')
        return { kind: 'refused', reason: 'iri', detail: 'its percent-encoded bytes are not UTF-8 text' };
      iri = strategy.base + decoded.text;
    }
  }
  const problem = iriProblem(iri);
  return problem === undefined
    ? { kind: 'iri', iri }
    : { kind: 'refused', reason: 'iri', detail: `it stands for text that is not an IRI: ${problem}` };
}

/**
 * What an id of the strategy is, for error details.
 *
 * @example describeIds({ kind: 'template', prefix: 'http://x/c/', suffix: '' }) // '1 to 256 lowercase hex digits, the {id} of http://x/c/{id}'
 */
export function describeIds(strategy: IdStrategy): string {
  switch (strategy.kind) {
    case 'predicate':
      return 'up to 128 lowercase hex digits and dashes, starting with a hex digit';
    case 'template':
      return `1 to 256 lowercase hex digits, the {id} of ${strategy.prefix}{id}${strategy.suffix}`;
    case 'hex':
      return strategy.base === ''
        ? 'the lowercase hex of the UTF-8 of an IRI'
        : `the lowercase hex of the UTF-8 of what follows ${strategy.base} in an IRI`;
    case 'local':
      return `what follows ${strategy.base} in an IRI, with every character but letters, digits, marks and - . _ ~ ! $ ' ( ) * : @ percent-encoded (UTF-8, uppercase hex), at most ${LOCAL_ID_MAX} characters`;
  }
}

/**
 * Maps a request id to what identifies it in the store, or `undefined` when the id can't be a
 * valid id of the type ({@link resolveId} says why).
 *
 * @example idToLookup({ kind: 'hex', base: 'http://x/c/' }, '4752') // { kind: 'iri', iri: 'http://x/c/GR' }
 */
export function idToLookup(strategy: IdStrategy, id: string): IdLookup | undefined {
  const resolved = resolveId(strategy, id);
  return resolved.kind === 'refused' ? undefined : resolved;
}

/**
 * The id of a member IRI for the `template`, `hex` and `local` strategies (the `predicate`
 * strategy reads it from the store instead).
 *
 * @example iriToId({ kind: 'local', base: 'http://qudt.org/vocab/unit/' }, 'http://qudt.org/vocab/unit/M-PER-SEC') // 'M-PER-SEC'
 */
export function iriToId(strategy: Exclude<IdStrategy, { kind: 'predicate' }>, iri: string): string {
  switch (strategy.kind) {
    case 'template':
      return iri.slice(strategy.prefix.length, iri.length - strategy.suffix.length);
    case 'hex':
      return Buffer.from(iri.slice(strategy.base.length), 'utf8').toString('hex');
    case 'local':
      return encodeLocalId(iri.slice(strategy.base.length));
  }
}

/**
 * The value the id sort expression (`sparql/id-sort.ts` `idSortExpression`) takes for the
 * resource with this id, or `undefined` when the id can't be an id of the strategy: the id itself
 * for predicate ids and templates with a suffix, the IRI otherwise (`hex` and `local` ids sort by
 * their IRIs).
 *
 * @example idSortValue({ kind: 'template', prefix: 'http://x/c/', suffix: '' }, '0101') // 'http://x/c/0101'
 */
export function idSortValue(strategy: IdStrategy, id: string): string | undefined {
  const lookup = idToLookup(strategy, id);
  if (!lookup) return undefined;
  return lookup.kind === 'literal' || sortsByIdText(strategy) ? id : lookup.iri;
}

/**
 * Whether a strategy's ids sort as their own text (predicate ids, templates with a suffix) or as
 * their IRIs (hex, local, templates without a suffix; for hex and such templates the two orders
 * agree): the one rule behind `sort=id`, every tie-break (`sparql/sort-clauses.ts`
 * idSortExpression), cursors ({@link idSortValue}) and the order of a resource's linkage.
 *
 * @example sortsByIdText({ kind: 'local', base: 'http://x/' }) // false: `m/s` before `m0`, as the IRIs
 */
export const sortsByIdText = (strategy: IdStrategy): boolean =>
  strategy.kind === 'predicate' || (strategy.kind === 'template' && strategy.suffix !== '');

/**
 * What a member sorts by among its type's members ({@link sortsByIdText}).
 *
 * @example memberSortKey({ kind: 'local', base: 'http://x/' }, { id: 'm%2Fs', iri: 'http://x/m/s' }) // 'http://x/m/s'
 */
export const memberSortKey = (strategy: IdStrategy, member: { readonly id: string; readonly iri: string }): string =>
  sortsByIdText(strategy) ? member.id : member.iri;
