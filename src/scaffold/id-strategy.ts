import { ID_PATTERNS } from '../mapping/ids.js';
import { isSafeAbsoluteIri } from '../mapping/iri.js';
import { encodeLocalId, LOCAL_ID_MAX } from '../mapping/local-id.js';

/**
 * The id strategy a scaffold proposes for a class, with the reason in words for the mapping's
 * comment. `hex` with `base: ''` is `{ hex: true }`.
 */
export type IdProposal = (
  | { readonly kind: 'predicate'; readonly predicate: string }
  | { readonly kind: 'template'; readonly prefix: string }
  | { readonly kind: 'local'; readonly base: string }
  | { readonly kind: 'hex'; readonly base: string }
) & { readonly why: string };

/** An id proposal that the member IRIs alone decide (no `mu:uuid`-like literal). */
export type IriIdProposal = Exclude<IdProposal, { readonly kind: 'predicate' }>;

/** The strategy that fits any IRI: the last resort. */
export const WHOLE_IRI_HEX: IriIdProposal = {
  kind: 'hex',
  base: '',
  why: 'member IRIs share no namespace: the id is the hex of the whole IRI',
};

/**
 * A local name a person reads in a URL: letters, digits, `_ . ~ -`, not too long. `local` ids
 * would take anything (they percent-encode the rest), but `/units/M-PER-SEC` is the point of them.
 */
const READABLE = /^[\p{L}\p{N}_][\p{L}\p{N}_.~-]{0,99}$/u;

/** Whether a local name has a `local` id at all: not empty, no dot segment, not too long once encoded. */
const localIdFits = (rest: string): boolean =>
  rest !== '' && rest !== '.' && rest !== '..' && encodeLocalId(rest).length <= LOCAL_ID_MAX;

/** How many irregular local names the reason spells out, with their ids. */
const SHOWN_ENCODED = 3;

/** The reason for `local` ids when some local names are not readable: which members get encoded ids. */
function encodedWhy(base: string, irregular: readonly string[], sampled: number): string {
  const shown = irregular
    .slice(0, SHOWN_ENCODED)
    .map((rest) => `'${rest}' → ${encodeLocalId(rest)}`)
    .join(', ');
  const more = irregular.length > SHOWN_ENCODED ? `, and ${irregular.length - SHOWN_ENCODED} more` : '';
  return `member IRIs are ${base} then a readable local name, but for ${irregular.length} of the ${sampled} sampled, whose ids are percent-encoded: ${shown}${more}`;
}

/**
 * The longest common start of the IRIs that ends with `/`, `#` or `:` (after the scheme's `//`),
 * or `''` when they share no more than a scheme.
 *
 * @example commonBase(['http://x/c/01', 'http://x/c/0a']) // 'http://x/c/'
 */
export function commonBase(iris: readonly string[]): string {
  if (iris.length === 0) return '';
  let common = iris[0]!;
  for (const iri of iris) {
    let n = 0;
    while (n < common.length && n < iri.length && common[n] === iri[n]) n++;
    common = common.slice(0, n);
  }
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:(?:\/\/[^/?#]*)?/.exec(common)?.[0].length ?? common.length;
  let cut = common.length;
  // Cut back to a delimiter, and never inside the scheme and authority.
  while (cut > authority && !'/#:'.includes(common[cut - 1]!)) cut--;
  const base = common.slice(0, cut);
  return cut > authority && isSafeAbsoluteIri(base) ? base : '';
}

/**
 * The id strategy for a class, from a sample of its member IRIs and, when its members carry one,
 * a `mu:uuid`-like literal (one per member; `values` a sample of them):
 * 1. `predicate` when the literal is there and every sampled value is a usable id;
 * 2. `template` when every local name after the common base is lowercase hex (`…/concept/0101`);
 * 3. `local` when most of them read well (`…/unit/M-PER-SEC`): the id is the local name, and the
 *    few that don't (a slash, a space) are percent-encoded, which the reason names, rather than
 *    every id of the type turning into long hex for one irregular member;
 * 4. `hex` otherwise (of what follows the base, or of the whole IRI).
 *
 * @example proposeId(['http://x/c/01', 'http://x/c/0a']) // { kind: 'template', prefix: 'http://x/c/', why: … }
 * @example proposeId(['http://qudt.org/vocab/unit/M', 'http://qudt.org/vocab/unit/KiloGM']).kind // 'local'
 */
export function proposeId(memberIris: readonly string[]): IriIdProposal;
export function proposeId(
  memberIris: readonly string[],
  uuid: { readonly predicate: string; readonly values: readonly string[] } | undefined,
): IdProposal;
export function proposeId(
  memberIris: readonly string[],
  uuid?: { readonly predicate: string; readonly values: readonly string[] },
): IdProposal {
  if (uuid && uuid.values.length > 0 && uuid.values.every((v) => ID_PATTERNS.predicate.test(v)))
    return {
      kind: 'predicate',
      predicate: uuid.predicate,
      why: `every sampled member has one ${uuid.predicate} value, of lowercase hex and dashes`,
    };
  const base = commonBase(memberIris);
  const rests = memberIris.map((iri) => iri.slice(base.length));
  if (base !== '' && rests.every((rest) => ID_PATTERNS.template.test(rest)))
    return { kind: 'template', prefix: base, why: `every member IRI is ${base} then lowercase hex` };
  if (base !== '' && rests.every(localIdFits)) {
    const irregular = rests.filter((rest) => !READABLE.test(rest));
    if (irregular.length === 0)
      return { kind: 'local', base, why: `every member IRI is ${base} then a readable local name` };
    if (irregular.length * 2 < rests.length)
      return { kind: 'local', base, why: encodedWhy(base, irregular, rests.length) };
  }
  if (base !== '')
    return {
      kind: 'hex',
      base,
      why: `member IRIs start with ${base}, but their local names are not all readable`,
    };
  return WHOLE_IRI_HEX;
}
