/** mu-cl-resources' core vocabulary, whose `mu:uuid` holds every resource's id. */
export const MU_CORE = 'http://mu.semte.ch/vocabularies/core/';
export const XSD = 'http://www.w3.org/2001/XMLSchema#';
const WKT = 'http://www.opengis.net/ont/geosparql#wktLiteral';

/** How a mu attribute type becomes a mapping attribute. */
export interface ConvertedAttribute {
  /** `unknown`: a type mu does not document, served as text. */
  readonly kind: 'known' | 'unknown';
  readonly datatype?: string;
  readonly language?: '*';
  readonly many?: true;
  /** How the attribute's JSON differs from what mu-cl-resources answers, for a comment. */
  readonly note?: string;
}

interface Rule {
  /** An XSD local name, or a full datatype IRI. */
  readonly datatype?: string;
  readonly language?: '*';
  readonly many?: true;
  readonly note?: string;
}

/**
 * mu-cl-resources' attribute types (its README's list, and the ones its source reads and writes
 * with a datatype: integer, float, time) and what each becomes. mu writes `number` as
 * xsd:decimal, `integer` as xsd:integer, `float` as xsd:float, `date`/`datetime`/`time`/`g-year`
 * as their XSD types; `string`, `url` and the `-set` types have no datatype here (text, any
 * value), the sets being arrays of every value.
 */
const RULES: Readonly<Record<string, Rule>> = {
  string: {},
  url: {},
  uri: {},
  number: { datatype: 'decimal' },
  integer: { datatype: 'integer' },
  float: { datatype: 'float' },
  boolean: { datatype: 'boolean' },
  date: { datatype: 'date' },
  datetime: { datatype: 'dateTime' },
  time: { datatype: 'time' },
  'g-year': { datatype: 'gYear' },
  geometry: { datatype: WKT },
  'string-set': { many: true },
  'uri-set': { many: true },
  'language-string': {
    language: '*',
    note: 'mu language-string: here an object from language tag to value ({"en": "…"}), not {content, language}',
  },
  'language-string-set': {
    language: '*',
    many: true,
    note: 'mu language-string-set: here an object from language tag to values ({"en": ["…"]}), not [{content, language}]',
  },
};

/**
 * The mapping attribute for a mu attribute type. `xsd(local)` writes an XSD datatype as a term
 * (`xsd:date`, with the prefix the caller declares).
 *
 * @example attributeFor('datetime', (l) => `xsd:${l}`) // { kind: 'known', datatype: 'xsd:dateTime' }
 * @example attributeFor('language-string-set', (l) => `xsd:${l}`).many // true
 */
export function attributeFor(muType: string, xsd: (local: string) => string): ConvertedAttribute {
  const key = muType.toLowerCase();
  if (!Object.hasOwn(RULES, key)) return { kind: 'unknown' };
  const rule = RULES[key]!;
  const datatype =
    rule.datatype === undefined ? undefined : rule.datatype.includes(':') ? rule.datatype : xsd(rule.datatype);
  return {
    kind: 'known',
    ...(datatype && { datatype }),
    ...(rule.language && { language: rule.language }),
    ...(rule.many && { many: rule.many }),
    ...(rule.note && { note: rule.note }),
  };
}
