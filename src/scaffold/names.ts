/**
 * JSON:API names from RDF names: kebab-case, plural type names, and a book that keeps the names
 * of one namespace (the types of a mapping, the fields of a type) apart.
 */

/** What `load-mapping.ts` accepts as a member name: ASCII letters, digits, `-` and `_`, not at either end. */
const MEMBER_NAME = /^[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?$/;

/**
 * The local name of an IRI: what follows its last `#`, `/` or `:` (the segment before a trailing
 * `/`, so `http://x/Concept/` is `Concept`).
 *
 * @example localName('http://www.w3.org/2004/02/skos/core#prefLabel') // 'prefLabel'
 */
export function localName(iri: string): string {
  const trimmed = iri.replace(/[/#]+$/, '');
  return trimmed.slice(Math.max(trimmed.lastIndexOf('#'), trimmed.lastIndexOf('/'), trimmed.lastIndexOf(':')) + 1);
}

/**
 * A kebab-case name: camelCase and acronyms split (`HTTPServer` → `http-server`), accents
 * dropped, every run of other characters one `-`. `''` when nothing usable is left.
 *
 * @example kebab('prefLabel') // 'pref-label'
 * @example kebab('QuantityKind') // 'quantity-kind'
 */
export function kebab(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Plurals English spells apart from the rules below. */
const IRREGULAR: Readonly<Record<string, string>> = {
  person: 'people',
  child: 'children',
  man: 'men',
  woman: 'women',
  datum: 'data',
  criterion: 'criteria',
  phenomenon: 'phenomena',
  series: 'series',
  species: 'species',
  news: 'news',
  data: 'data',
  metadata: 'metadata',
  media: 'media',
  information: 'information',
  software: 'software',
  equipment: 'equipment',
};

/**
 * The plural of a kebab-case name (its last word): `quantity-kind` → `quantity-kinds`.
 *
 * @example plural('concept-scheme') // 'concept-schemes'
 * @example plural('activity') // 'activities'
 */
export function plural(name: string): string {
  const at = name.lastIndexOf('-') + 1;
  const head = name.slice(0, at);
  const word = name.slice(at);
  if (IRREGULAR[word] !== undefined) return head + IRREGULAR[word];
  if (/(?:is)$/.test(word) && word.length > 3) return `${head}${word.slice(0, -2)}es`; // analysis → analyses
  if (/(?:s|x|z|ch|sh)$/.test(word)) return `${head}${word}es`;
  if (/[^aeiou]y$/.test(word)) return `${head}${word.slice(0, -1)}ies`;
  if (/^\d+$/.test(word) || word === '') return name;
  return `${head}${word}s`;
}

/**
 * Hands out distinct member names within one namespace: the first free of the candidates given,
 * else the first with a number appended (`label-2`). Reserved names are never handed out.
 */
export class NameBook {
  private readonly taken = new Set<string>();

  constructor(private readonly reserved: ReadonlySet<string> = new Set()) {}

  /**
   * The first usable, free name among `candidates` (each made kebab-case first), else the
   * first usable one numbered; `fallback` stands in when none is usable.
   *
   * @example new NameBook(new Set(['id'])).claim(['id', 'dcterms-id'], 'field') // 'dcterms-id'
   */
  claim(candidates: readonly string[], fallback: string): string {
    const ok = (name: string) => MEMBER_NAME.test(name) && !this.reserved.has(name);
    const named = candidates.map(kebab).filter(ok);
    const usable = named.length > 0 ? named : [fallback];
    const free = usable.find((name) => !this.taken.has(name));
    if (free !== undefined) return this.take(free);
    const base = usable[0]!;
    for (let n = 2; ; n++) {
      const numbered = `${base}-${n}`;
      if (!this.taken.has(numbered) && !this.reserved.has(numbered)) return this.take(numbered);
    }
  }

  private take(name: string): string {
    this.taken.add(name);
    return name;
  }
}
