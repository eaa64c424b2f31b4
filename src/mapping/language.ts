import type { Attribute } from './model.js';

/** `language: '*'`: the attribute shows every language, as an object keyed by language tag. */
export const EVERY_LANGUAGE = '*';

/** The key under which a `language: '*'` attribute shows untagged values (BCP 47's "undetermined"). */
export const UNTAGGED_KEY = 'und';

/**
 * One tier of a language preference: which values it takes. Tags compare case-insensitively.
 * - `exact`: the tag is `tag` (`en` takes `en`, not `en-US`);
 * - `range`: the tag is `range` or starts with `range-` (SPARQL's `LANGMATCHES`: `en` takes `en-US`);
 * - `untagged`: no language tag (plain or typed literals, IRIs);
 * - `any`: every value.
 */
export type LanguageTier =
  | { readonly kind: 'exact'; readonly tag: string }
  | { readonly kind: 'range'; readonly range: string }
  | { readonly kind: 'untagged' }
  | { readonly kind: 'any' };

/**
 * Most tiers a preference has: the sort keys write a tier as one character of `0-9A-Z`, and a
 * strict preference needs one more for values outside its range.
 */
export const MAX_TIERS = 35;

/**
 * The one description of which values a language attribute shows, best tier first; the shape
 * (`shape/resource-objects.ts`) and the sort keys (`sparql/language-tier.ts`) both follow it.
 * For a wanted tag `pt-br`:
 * 1. exactly `pt-br`;
 * 2. its truncations, longest first, as RFC 4647 lookup makes them (`pt`; a single-character
 *    subtag is dropped with the one after it: `de-ch-x-foo` → `de-ch`, `de`);
 * 3. any other tag of the primary language (`pt-pt`, `pt-br-x-foo`);
 * 4. untagged values;
 * 5. any value.
 * A strict attribute stops after 3: its values in another language, or untagged, are not shown.
 * `language: '*'` and attributes without a language have the single tier `any`. Within the best
 * tier that has values, the least value wins (`compareTerms`), as for any attribute.
 *
 * @example languageTiers({ language: 'en', … }) // [exact en, range en, untagged, any]
 */
export function languageTiers(attribute: Pick<Attribute, 'language' | 'strictLanguage'>): LanguageTier[] {
  const wanted = attribute.language?.toLowerCase();
  if (wanted === undefined || wanted === EVERY_LANGUAGE) return [{ kind: 'any' }];
  const subtags = wanted.split('-');
  const tiers: LanguageTier[] = [{ kind: 'exact', tag: wanted }];
  for (let n = subtags.length - 1; n >= 1; n--) {
    // RFC 4647 §3.4: a singleton (x, u, …) never ends a truncation.
    if (subtags[n - 1]!.length === 1) continue;
    tiers.push({ kind: 'exact', tag: subtags.slice(0, n).join('-') });
  }
  // Very long tags: the shortest truncations fall into the range tier, which takes them too.
  const ranked = tiers.slice(0, MAX_TIERS - 4);
  ranked.push({ kind: 'range', range: subtags[0]! });
  if (!attribute.strictLanguage) ranked.push({ kind: 'untagged' }, { kind: 'any' });
  return ranked;
}

/** Whether a value with language tag `tag` (`''` when untagged) belongs to `tier`. */
export function inTier(tier: LanguageTier, tag: string): boolean {
  const lower = tag.toLowerCase();
  switch (tier.kind) {
    case 'exact':
      return lower === tier.tag;
    case 'range':
      return lower === tier.range || lower.startsWith(`${tier.range}-`);
    case 'untagged':
      return lower === '';
    case 'any':
      return true;
  }
}

/**
 * The index in `tiers` of the first tier a value with language tag `tag` belongs to, or
 * `undefined` when none takes it (a strict attribute's value in another language).
 */
export function tierOf(tiers: readonly LanguageTier[], tag: string): number | undefined {
  const index = tiers.findIndex((tier) => inTier(tier, tag));
  return index < 0 ? undefined : index;
}
