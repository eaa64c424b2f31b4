import { isSafeAbsoluteIri } from './iri.js';
import type { IdStrategy } from './model.js';

/**
 * Ids are opaque lowercase hexadecimal strings (the spec). The `predicate` strategy also allows
 * dashes, so that mu-cl-resources' UUIDs (`5a3f…-…`) keep working. Bounded lengths keep a
 * hostile id from growing a query.
 */
const ID_PATTERNS = {
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
 * Maps a request id to what identifies it in the store, or `undefined` when the id can't be a
 * valid id of the type (the caller answers 404 without asking the store).
 *
 * @example idToLookup({ kind: 'hex', base: 'http://x/c/' }, '4752') // { kind: 'iri', iri: 'http://x/c/GR' }
 */
export function idToLookup(strategy: IdStrategy, id: string): IdLookup | undefined {
  if (!ID_PATTERNS[strategy.kind].test(id)) return undefined;
  switch (strategy.kind) {
    case 'predicate':
      return { kind: 'literal', value: id };
    case 'template': {
      const iri = strategy.prefix + id + strategy.suffix;
      return isSafeAbsoluteIri(iri) ? { kind: 'iri', iri } : undefined;
    }
    case 'hex': {
      let rest: string;
      try {
        rest = utf8.decode(Buffer.from(id, 'hex'));
      } catch {
        return undefined; // not UTF-8: no IRI has this id
      }
      const iri = strategy.base + rest;
      return isSafeAbsoluteIri(iri) ? { kind: 'iri', iri } : undefined;
    }
  }
}

/**
 * The id of a member IRI for the `template` and `hex` strategies (the `predicate` strategy reads
 * it from the store instead).
 */
export function iriToId(strategy: Exclude<IdStrategy, { kind: 'predicate' }>, iri: string): string {
  return strategy.kind === 'template'
    ? iri.slice(strategy.prefix.length, iri.length - strategy.suffix.length)
    : Buffer.from(iri.slice(strategy.base.length), 'utf8').toString('hex');
}

/**
 * The value the id sort expression (`sparql/sort-clauses.ts` `idSortExpression`) takes for the
 * resource with this id, or `undefined` when the id can't be an id of the strategy: the id itself
 * for predicate ids and templates with a suffix, the IRI otherwise.
 *
 * @example idSortValue({ kind: 'template', prefix: 'http://x/c/', suffix: '' }, '0101') // 'http://x/c/0101'
 */
export function idSortValue(strategy: IdStrategy, id: string): string | undefined {
  const lookup = idToLookup(strategy, id);
  if (!lookup) return undefined;
  return lookup.kind === 'literal' || (strategy.kind === 'template' && strategy.suffix !== '') ? id : lookup.iri;
}
