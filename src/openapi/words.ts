import pluralize from 'pluralize';

/**
 * A type's name as words: kebab-case to spaces (`trade-activities` → `trade activities`).
 *
 * @example typeWords('trade-activities') // 'trade activities'
 */
export function typeWords(name: string): string {
  return name.replace(/[-_]+/g, ' ');
}

/**
 * One member of a type, in words: its name's last word made singular (by `pluralize`), so that
 * summaries read as a person writes them (`Get one trade activity`, not `Get one of trade-activities`).
 *
 * @example oneOf('trade-activities') // 'trade activity'
 * @example oneOf('people') // 'person'
 */
export function oneOf(name: string): string {
  const words = typeWords(name).split(' ');
  words[words.length - 1] = pluralize.singular(words.at(-1)!);
  return words.join(' ');
}

/** An id in examples: hex, digits and a readable local name at once, so it fits every id strategy. */
export const EXAMPLE_ID = '0101';

/**
 * A link schema (a URI reference) with an example, so that generated examples show a link of this
 * API (`/concepts/0101`) rather than a made-up relative path (`../folder`).
 *
 * @example link('/concepts/0101') // { type: 'string', format: 'uri-reference', examples: ['/concepts/0101'] }
 */
export function link(example: string): { [key: string]: unknown } {
  return { type: 'string', format: 'uri-reference', examples: [example] };
}

/** A {@link link} that may be `null` (a first page's `prev`, a last page's `next`). */
export function nullableLink(example: string): { [key: string]: unknown } {
  return { ...link(example), type: ['string', 'null'] };
}
