import { ID_PATTERNS } from '../mapping/ids.js';
import { isSafeAbsoluteIri } from '../mapping/iri.js';

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
 * 3. `local` when they read well (`…/unit/M-PER-SEC`): the id is the local name;
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
  if (base !== '' && rests.every((rest) => READABLE.test(rest)))
    return { kind: 'local', base, why: `every member IRI is ${base} then a readable local name` };
  if (base !== '')
    return {
      kind: 'hex',
      base,
      why: `member IRIs start with ${base}, but their local names are not all readable`,
    };
  return WHOLE_IRI_HEX;
}
