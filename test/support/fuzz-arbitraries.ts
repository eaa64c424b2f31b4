import rdf from '@rdfjs/data-model';
import fc from 'fast-check';
import type { Mapping, ResourceType } from '../../src/mapping/model.js';
import { encodeCursor, type KeyValue } from '../../src/request/cursor.js';
import { parseSort } from '../../src/request/parse-sort.js';

/*
 * fast-check arbitraries over the grammar of a mapping (mappings/sample.yaml in the fuzz suite):
 * request paths, every query parameter family, the headers the server reads, and methods. They
 * generate *seeds* (numbers and strings); `render*` turns a seed into a request against the
 * mapping, so that a parameter can follow the type the path names (sort fields, filter paths,
 * include paths, forged cursors) without chaining arbitraries.
 *
 * Client input that tries to break out of a SPARQL literal or IRI carries a canary: the variable
 * `?pwn…` or an IRI `<urn:pwn:…>`. A query in which either appears as a term (not inside a string)
 * holds raw client input.
 */

/** What the fuzzer sends. `what` says which generator made it, for reports. */
export interface FuzzRequest {
  readonly method: string;
  /** The request target as sent on the wire (path and query, already percent-encoded). */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly what: string;
}

/** A dataset prefix as the fuzz app serves it. */
export interface FuzzDataset {
  /** `''` for the default dataset, `/api/<name>` otherwise. */
  readonly prefix: string;
  readonly maxSize: number;
}

/** The mapping, with real ids of each type, and the app's datasets. */
export interface FuzzGrammar {
  readonly mapping: Mapping;
  readonly ids: ReadonlyMap<string, readonly string[]>;
  readonly datasets: readonly FuzzDataset[];
}

/** The marker of injected SPARQL: a variable or an IRI with it in a parsed query is raw client input. */
export const CANARY = 'pwn';

/** Strings that would break out of a SPARQL string literal, IRI, or group if sent raw. */
export const PAYLOADS: readonly string[] = [
  '"',
  "'",
  '\\',
  '"""',
  "'''",
  '\\"',
  '\\u0022',
  '>',
  '<',
  '{',
  '}',
  '#',
  '%',
  '%00',
  '\u0000',
  '\n',
  '\r\n',
  '\t',
  ' ',
  '`',
  '\u202e',
  '\ufeff',
  '\uffff',
  '😀',
  'Ζώα',
  'É',
  `" } ?${CANARY} <urn:${CANARY}:p> ?o . { "`,
  `' } ?${CANARY} <urn:${CANARY}:p> ?o . { '`,
  `"""} UNION { ?${CANARY} ?p ?o } #`,
  `") } UNION { ?${CANARY} ?p ?o } #`,
  `"^^<urn:${CANARY}:t> . ?${CANARY} ?p ?o #`,
  `"@en . ?${CANARY} ?p ?o #`,
  `> . ?${CANARY} <urn:${CANARY}:p> <urn:${CANARY}:o`,
  `x> } ?${CANARY} ?p ?o { <urn:${CANARY}:x`,
  `\\" } ?${CANARY} ?p ?o { \\"`,
  `}; DROP ALL; SELECT * { ?${CANARY} ?p ?o`,
  `INSERT DATA { <urn:${CANARY}:s> <urn:${CANARY}:p> <urn:${CANARY}:o> }`,
  `" . FILTER(true) } LIMIT 1 #`,
  '0101"',
  "7c1e0a42'",
  'a,b\\,c\\\\d',
  '\\,',
  ',,,',
  '2016-01-01Z',
  '2016-01-01',
  '2016',
  '2016-13-45',
  '20000.00',
  '1.2E3',
  '-7',
  '+5',
  '9'.repeat(40),
  'NaN',
  'INF',
  'true',
  'false',
  '1',
  '0',
  'yes',
  '',
];

/** Text the fuzzer puts in values and ids: payloads, any code units (lone surrogates too), long runs. */
export const oddText: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...PAYLOADS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.constantFrom(...PAYLOADS.filter((p) => p !== '')), { minLength: 2, maxLength: 4 })
      .map((parts) => parts.join('')),
  },
  // Long values: 3,000 characters; encoded, 3 to 9 KB (past 8,192 the URL is too long: 414).
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(3000), '"'.repeat(3000), 'é'.repeat(1500), '0,'.repeat(1500)) },
);

/**
 * Percent-encodes `text` as a URL would carry it: `strict` encodes every byte outside the
 * unreserved set; `loose` leaves what Node's client lets through raw (`[ ] ' " < > { } | ^ \``…),
 * so the server sees the raw characters. Lone surrogates become U+FFFD's bytes, as UTF-8 does.
 */
export function percentEncode(text: string, style: 'strict' | 'loose'): string {
  const keep = style === 'strict' ? /[A-Za-z0-9\-._~]/ : /[!-~]/;
  let out = '';
  for (const char of text) {
    if (keep.test(char) && !(style === 'loose' && /[%&#+=?/ ]/.test(char))) out += char;
    else for (const byte of Buffer.from(char, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

// --- paths --------------------------------------------------------------------------------------

/** A dot path through the mapping, as numbers: relationship picks, then what it ends on. */
export interface FieldSeed {
  readonly descending: boolean;
  readonly steps: readonly number[];
  readonly end: number;
  readonly endKind: 'attribute' | 'relationship' | 'id' | 'unknown' | 'empty' | 'odd';
  readonly odd: string;
}

const fieldSeed: fc.Arbitrary<FieldSeed> = fc.record({
  descending: fc.boolean(),
  steps: fc.oneof(
    { weight: 4, arbitrary: fc.constant([]) },
    { weight: 4, arbitrary: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }) },
    { weight: 1, arbitrary: fc.array(fc.nat(), { minLength: 4, maxLength: 5 }) },
  ),
  end: fc.nat(),
  endKind: fc.constantFrom<FieldSeed['endKind'][]>(
    'attribute',
    'attribute',
    'attribute',
    'relationship',
    'id',
    'unknown',
    'empty',
    'odd',
  ),
  odd: oddText,
});

const pick = <T>(list: readonly T[], n: number): T | undefined =>
  list.length === 0 ? undefined : list[n % list.length];

/** The dot path a seed stands for from `type` (`concerns.broader-concepts.label`), and the type it ends at. */
export function renderField(mapping: Mapping, type: ResourceType, seed: FieldSeed, withSign = true): string {
  const parts: string[] = [];
  let at = type;
  for (const step of seed.steps) {
    const relationship = pick([...at.relationships.values()], step);
    if (!relationship) break;
    parts.push(relationship.name);
    at = mapping.types.get(relationship.target)!;
  }
  const end = {
    attribute: pick([...at.attributes.keys()], seed.end) ?? 'id',
    relationship: pick([...at.relationships.keys()], seed.end) ?? 'nope',
    id: 'id',
    unknown: pick(['nope', 'Label', 'label ', 'type', 'links', 'self', 'financial_year', 'concerns..label'], seed.end)!,
    empty: '',
    odd: seed.odd,
  }[seed.endKind];
  parts.push(end);
  return (withSign && seed.descending ? '-' : '') + parts.join('.');
}

/** Where a generated path points: the type whose list or resource it names, when it names one. */
export interface RenderedPath {
  readonly path: string;
  /** The type of the resources a list at this path holds (the relationship's target on related URLs). */
  readonly listType?: ResourceType;
  readonly dataset?: FuzzDataset;
}

export interface PathSeed {
  readonly prefix: number;
  readonly prefixKind: 'dataset' | 'default' | 'unknown' | 'odd' | 'bare-api';
  readonly typeKind: 'known' | 'unknown' | 'odd';
  readonly type: number;
  readonly idKind:
    | 'none'
    | 'real'
    | 'hex'
    | 'upper'
    | 'hex-of-odd'
    | 'long'
    | 'uuid'
    | 'odd'
    | 'bad-percent'
    | 'dots'
    | 'empty';
  readonly id: number;
  readonly hex: string;
  readonly odd: string;
  readonly tail: 'none' | 'related' | 'links' | 'relationships' | 'unknown-rel' | 'extra' | 'link-typo' | 'slash';
  readonly rel: number;
  readonly encoding: 'strict' | 'loose';
}

export const pathSeed: fc.Arbitrary<PathSeed> = fc.record({
  prefix: fc.nat(),
  prefixKind: fc.constantFrom<PathSeed['prefixKind'][]>(
    'default',
    'default',
    'default',
    'default',
    'dataset',
    'dataset',
    'unknown',
    'odd',
    'bare-api',
  ),
  typeKind: fc.constantFrom<PathSeed['typeKind'][]>('known', 'known', 'known', 'known', 'known', 'unknown', 'odd'),
  type: fc.nat(),
  idKind: fc.constantFrom<PathSeed['idKind'][]>(
    'none',
    'none',
    'real',
    'real',
    'real',
    'hex',
    'upper',
    'hex-of-odd',
    'hex-of-odd',
    'long',
    'uuid',
    'odd',
    'odd',
    'bad-percent',
    'dots',
    'empty',
  ),
  id: fc.nat(),
  hex: fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 1, maxLength: 40 }),
  odd: oddText,
  tail: fc.constantFrom<PathSeed['tail'][]>(
    'none',
    'none',
    'none',
    'related',
    'related',
    'links',
    'relationships',
    'unknown-rel',
    'extra',
    'link-typo',
    'slash',
  ),
  rel: fc.nat(),
  encoding: fc.constantFrom<PathSeed['encoding'][]>('strict', 'strict', 'loose'),
});

const UNKNOWN_TYPES = ['nope', 'Concepts', 'concept', 'trade_activities', 'api', 'links', 'relationships', 'sparql'];
/** Past 8,192 characters a URL gets 414; past Node's 16 KB header limit, 431. */
const LONG_IDS = [257, 2048, 4096, 4098, 5000, 10_000, 20_000];

/** Turns a path seed into a request path over the grammar's mapping and datasets. */
export function renderPath(grammar: FuzzGrammar, seed: PathSeed): RenderedPath {
  const { mapping } = grammar;
  const enc = (segment: string) => percentEncode(segment, seed.encoding);
  let prefix = '';
  let dataset: FuzzDataset | undefined = grammar.datasets.find((d) => d.prefix === '');
  switch (seed.prefixKind) {
    case 'dataset':
      dataset = pick(grammar.datasets, seed.prefix);
      prefix = dataset!.prefix;
      break;
    case 'unknown':
      dataset = undefined;
      prefix = `/api/${pick(['nope', 'Sample', 'default', 'api', 'health'], seed.prefix)}`;
      break;
    case 'odd':
      dataset = undefined;
      prefix = `/api/${enc(seed.odd) || '%20'}`;
      break;
    case 'bare-api':
      dataset = undefined;
      prefix = '/api';
      break;
  }
  const types = [...mapping.types.values()];
  const type = seed.typeKind === 'known' ? pick(types, seed.type)! : undefined;
  const typeSegment =
    type?.name ??
    (seed.typeKind === 'unknown' ? pick(UNKNOWN_TYPES, seed.type)! : enc(seed.odd).replace(/^(metrics|health)$/i, 'x'));
  const real = type ? (grammar.ids.get(type.name) ?? []) : [];
  const idSegment: string | undefined = {
    none: undefined,
    real: pick(real, seed.id) ?? seed.hex,
    hex: seed.hex,
    upper: (pick(real, seed.id) ?? seed.hex).toUpperCase(),
    'hex-of-odd': Buffer.from(seed.odd || '>', 'utf8').toString('hex'),
    long: '0'.repeat(pick(LONG_IDS, seed.id)!),
    uuid: `${seed.hex.padEnd(8, '0').slice(0, 8)}-aaaa-4bbb-8ccc-${'d'.repeat(12)}`,
    odd: enc(seed.odd) || '%00',
    'bad-percent': pick(['%', '%zz', '%e2%82', '%ff', '0101%', '%C0%AF', '%ED%A0%80'], seed.id)!,
    dots: pick(['.', '..', '...', '%2e%2e', '.%2F..'], seed.id)!,
    empty: '',
  }[seed.idKind];
  const relationships = type ? [...type.relationships.values()] : [];
  const relationship = pick(relationships, seed.rel);
  let path = `${prefix}/${typeSegment}`;
  let listType = seed.idKind === 'none' ? type : undefined;
  if (idSegment !== undefined) {
    path += `/${idSegment}`;
    const relName = relationship?.name ?? 'nope';
    const target = relationship?.cardinality === 'many' ? mapping.types.get(relationship.target) : undefined;
    switch (seed.tail) {
      case 'related':
        path += `/${relName}`;
        listType = target;
        break;
      case 'links':
      case 'relationships':
        path += `/${seed.tail}/${relName}`;
        listType = target;
        break;
      case 'unknown-rel':
        path += `/${pick(['nope', 'Concerns', 'links', 'relationships', enc(seed.odd) || 'x'], seed.rel)}`;
        break;
      case 'extra':
        path += `/links/${relName}/x`;
        break;
      case 'link-typo':
        path += `/link/${relName}`;
        break;
      case 'slash':
        path += pick(['/', '//', '/links', '/links/'], seed.rel);
        break;
    }
  } else if (seed.tail === 'slash') path += pick(['/', '//'], seed.rel);
  return { path, ...(listType && { listType }), ...(dataset && { dataset }) };
}

// --- query parameters ---------------------------------------------------------------------------

export type CursorSeed =
  | { readonly kind: 'garbage'; readonly text: string }
  | { readonly kind: 'base64-json'; readonly json: unknown }
  | {
      readonly kind: 'forged';
      readonly values: readonly ValueSeed[];
      readonly id: number;
      readonly odd: string;
      readonly idKind: 'real' | 'odd';
      readonly inclusive: boolean;
      readonly cut: number;
    };

export type ValueSeed =
  | { readonly kind: 'null' }
  | { readonly kind: 'plain'; readonly text: string }
  | { readonly kind: 'typed'; readonly text: string; readonly datatype: string }
  | { readonly kind: 'lang'; readonly text: string; readonly language: string }
  | { readonly kind: 'iri'; readonly iri: string };

const XSD = 'http://www.w3.org/2001/XMLSchema#';

const valueSeed: fc.Arbitrary<ValueSeed> = fc.oneof(
  fc.constant({ kind: 'null' as const }),
  fc.record({ kind: fc.constant('plain' as const), text: oddText }),
  fc.record({
    kind: fc.constant('typed' as const),
    text: oddText,
    datatype: fc.constantFrom(
      `${XSD}date`,
      `${XSD}integer`,
      `${XSD}decimal`,
      `${XSD}boolean`,
      `${XSD}dateTime`,
      'http://example.org/datatype',
      `urn:${CANARY}:t> . ?${CANARY} ?p ?o #`,
    ),
  }),
  fc.record({
    kind: fc.constant('lang' as const),
    text: oddText,
    language: fc.constantFrom('en', 'el', 'en-GB', 'x', 'EN', 'en us', `en . ?${CANARY} ?p ?o #`),
  }),
  fc.record({
    kind: fc.constant('iri' as const),
    iri: fc.constantFrom(
      'http://linkedeconomy.org/resource/concept/0101',
      'http://example.org/x',
      `http://example.org/x> . ?${CANARY} ?p ?o . <http://example.org/y`,
      'http://example.org/"',
      'relative',
    ),
  }),
);

export const cursorSeed: fc.Arbitrary<CursorSeed> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('garbage' as const),
      text: fc.oneof(
        oddText,
        fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_') }),
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('base64-json' as const), json: fc.jsonValue({ maxDepth: 3 }) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('forged' as const),
      values: fc.array(valueSeed, { maxLength: 4 }),
      id: fc.nat(),
      odd: oddText,
      idKind: fc.constantFrom<('real' | 'odd')[]>('real', 'real', 'odd'),
      inclusive: fc.boolean(),
      cut: fc.nat({ max: 3 }),
    }),
  },
);

function termOf(seed: ValueSeed): KeyValue {
  switch (seed.kind) {
    case 'null':
      return null;
    case 'plain':
      return rdf.literal(seed.text);
    case 'typed':
      return rdf.literal(seed.text, rdf.namedNode(seed.datatype));
    case 'lang':
      return rdf.literal(seed.text, seed.language);
    case 'iri':
      return rdf.namedNode(seed.iri);
  }
}

/**
 * A cursor for `type` sorted by `sort`: garbage, base64url of any JSON, or one forged with the
 * server's own (unkeyed) digest, so that its values, odd ones included, reach the query builders.
 */
export function renderCursor(
  mapping: Mapping,
  type: ResourceType,
  sort: string | undefined,
  seed: CursorSeed,
  ids: readonly string[],
): string {
  if (seed.kind === 'garbage') return seed.text;
  if (seed.kind === 'base64-json') return Buffer.from(JSON.stringify(seed.json) ?? 'null').toString('base64url');
  let keys: ReturnType<typeof parseSort>;
  try {
    keys = sort === undefined ? [...type.defaultSort] : parseSort(sort, mapping, type);
  } catch {
    keys = [...type.defaultSort];
  }
  // As many values as the sort has attribute keys, most of the time: then the cursor is used.
  const wanted = keys.filter((key) => key.path.end !== 'id').length;
  const values =
    seed.cut === 0
      ? seed.values
      : Array.from({ length: wanted }, (_, i) => seed.values[i] ?? { kind: 'null' as const });
  const id = seed.idKind === 'real' ? (pick(ids, seed.id) ?? '0') : seed.odd;
  const cursor = encodeCursor({ type, sort: keys }, { values: values.map(termOf), id, inclusive: seed.inclusive });
  return seed.cut === 3 ? cursor.slice(0, Math.max(1, cursor.length - 5)) : cursor;
}

export type ParamSeed =
  | { readonly family: 'sort'; readonly fields: readonly FieldSeed[]; readonly repeat: boolean }
  | { readonly family: 'page'; readonly member: string; readonly value: string }
  | { readonly family: 'cursor'; readonly member: 'after' | 'before'; readonly cursor: CursorSeed }
  | {
      readonly family: 'filter';
      readonly shape: 'search' | 'field' | 'operator' | 'deep' | 'empty-brackets';
      readonly field: FieldSeed;
      readonly operator: string;
      readonly values: readonly string[];
      readonly join: 'comma' | 'raw';
    }
  | { readonly family: 'include'; readonly paths: readonly FieldSeed[] }
  | {
      readonly family: 'fields';
      readonly type: number;
      readonly typeKind: 'known' | 'odd';
      readonly fields: readonly number[];
      readonly extra: string;
    }
  | { readonly family: 'other'; readonly name: string; readonly value: string };

const PAGE_VALUES = [
  '0',
  '1',
  '2',
  '3',
  '5',
  '10',
  '11',
  '100',
  '101',
  '999999999',
  '1000000000',
  '99999999999999999999',
  '-1',
  '1.5',
  '1e2',
  '0x10',
  ' 1',
  '1 ',
  '+1',
  '',
  '٣',
  'NaN',
  'null',
];

export const paramSeed: fc.Arbitrary<ParamSeed> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      family: fc.constant('sort' as const),
      fields: fc.array(fieldSeed, { minLength: 1, maxLength: 4 }),
      repeat: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      family: fc.constant('page' as const),
      member: fc.constantFrom('number', 'number', 'size', 'size', 'cursor', '', 'Number', 'size][x'),
      value: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PAGE_VALUES) }, { weight: 1, arbitrary: oddText }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      family: fc.constant('cursor' as const),
      member: fc.constantFrom<('after' | 'before')[]>('after', 'before'),
      cursor: cursorSeed,
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      family: fc.constant('filter' as const),
      shape: fc.constantFrom<('search' | 'field' | 'operator' | 'deep' | 'empty-brackets')[]>(
        'search',
        'field',
        'operator',
        'operator',
        'operator',
        'deep',
        'empty-brackets',
      ),
      field: fieldSeed,
      operator: fc.constantFrom(
        'eq',
        'ne',
        'lt',
        'lte',
        'gt',
        'gte',
        'contains',
        'starts-with',
        'exists',
        'EQ',
        'like',
        'in',
        'regex',
      ),
      values: fc.array(oddText, { minLength: 1, maxLength: 3 }),
      join: fc.constantFrom<('comma' | 'raw')[]>('comma', 'raw'),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      family: fc.constant('include' as const),
      paths: fc.array(fieldSeed, { minLength: 0, maxLength: 4 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      family: fc.constant('fields' as const),
      type: fc.nat(),
      typeKind: fc.constantFrom<('known' | 'odd')[]>('known', 'known', 'known', 'odd'),
      fields: fc.array(fc.integer({ min: -1, max: 20 }), { maxLength: 4 }),
      extra: oddText,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      family: fc.constant('other' as const),
      name: fc.oneof(
        fc.constantFrom(
          'foo',
          'Sort',
          'page',
          'fields',
          'include[x]',
          'sort[x]',
          '_x',
          'a b',
          'filter[a][b][c]',
          'filter[]',
          'page[]',
          'fields[]',
          'fields[a][b]',
          'fields[a.b]',
          'ext',
          'profile',
          '',
          '[',
          'filter[',
          'filter]',
        ),
        oddText,
      ),
      value: oddText,
    }),
  },
);

/** A query string: parameters from the seeds, rendered for `type`, encoded in one style. */
export interface QuerySeed {
  readonly params: readonly ParamSeed[];
  readonly encoding: 'strict' | 'brackets' | 'loose';
  /** Sends the first parameter twice (a 400 naming it). */
  readonly repeatFirst: boolean;
}

export const querySeed: fc.Arbitrary<QuerySeed> = fc.record({
  params: fc.array(paramSeed, { minLength: 0, maxLength: 5 }),
  encoding: fc.constantFrom<QuerySeed['encoding'][]>('strict', 'brackets', 'brackets', 'loose'),
  repeatFirst: fc.constantFrom(false, false, false, false, false, false, false, true),
});

/** Renders one query parameter as [name, value] for a list of `type` (or any type when the path names none). */
function renderParam(
  grammar: FuzzGrammar,
  type: ResourceType,
  sort: string | undefined,
  seed: ParamSeed,
): [string, string][] {
  const { mapping } = grammar;
  switch (seed.family) {
    case 'sort': {
      const fields = seed.fields.map((f) => renderField(mapping, type, f));
      if (seed.repeat && fields.length > 0) fields.push(fields[0]!);
      return [['sort', fields.join(',')]];
    }
    case 'page':
      return [[`page[${seed.member}]`, seed.value]];
    case 'cursor':
      return [
        [`page[${seed.member}]`, renderCursor(mapping, type, sort, seed.cursor, grammar.ids.get(type.name) ?? [])],
      ];
    case 'filter': {
      const field = renderField(mapping, type, seed.field, false);
      const value =
        seed.join === 'comma'
          ? seed.values.map((v) => v.replace(/[\\,]/g, (c) => `\\${c}`)).join(',')
          : seed.values.join(',');
      switch (seed.shape) {
        case 'search':
          return [['filter', seed.values[0]!]];
        case 'field':
          return [[`filter[${field}]`, value]];
        case 'operator':
          return [
            [
              `filter[${field}][${seed.operator}]`,
              seed.operator === 'exists' ? pick(['true', 'false', value], seed.values.length)! : value,
            ],
          ];
        case 'deep':
          return [[`filter[${field}][${seed.operator}][x]`, value]];
        case 'empty-brackets':
          return [['filter[]', value]];
      }
      break;
    }
    case 'include':
      return [
        [
          'include',
          seed.paths
            .map((p) =>
              renderField(
                mapping,
                type,
                { ...p, endKind: p.endKind === 'attribute' ? 'relationship' : p.endKind },
                false,
              ),
            )
            .join(','),
        ],
      ];
    case 'fields': {
      const types = [...mapping.types.values()];
      const target = seed.typeKind === 'known' ? pick(types, seed.type)! : undefined;
      const names = target ? [...target.attributes.keys(), ...target.relationships.keys()] : [];
      const fields = seed.fields.map((n) => (n < 0 ? seed.extra : (pick(names, n) ?? 'nope')));
      return [[`fields[${target?.name ?? seed.extra}]`, fields.join(',')]];
    }
    case 'other':
      return [[seed.name, seed.value]];
  }
  return [];
}

/** Renders a query string (without `?`), or `''` for no parameters. */
export function renderQuery(
  grammar: FuzzGrammar,
  listType: ResourceType | undefined,
  seed: QuerySeed,
  typePick: number,
): string {
  const type = listType ?? pick([...grammar.mapping.types.values()], typePick)!;
  const sortSeed = seed.params.find((p) => p.family === 'sort');
  const sort = sortSeed ? renderParam(grammar, type, undefined, sortSeed)[0]![1] : undefined;
  const pairs = seed.params.flatMap((p) => renderParam(grammar, type, sort, p));
  if (seed.repeatFirst && pairs.length > 0) pairs.push(pairs[0]!);
  return pairs
    .map(([name, value]) => {
      switch (seed.encoding) {
        case 'strict':
          return `${percentEncode(name, 'strict')}=${percentEncode(value, 'strict')}`;
        case 'brackets':
          return `${percentEncode(name, 'strict').replace(/%5B/g, '[').replace(/%5D/g, ']')}=${percentEncode(value, 'strict')}`;
        case 'loose':
          return `${percentEncode(name, 'loose')}=${percentEncode(value, 'loose')}`;
      }
      return '';
    })
    .join('&');
}

// --- headers and methods ------------------------------------------------------------------------

/** Characters Node's client lets through in a header value (no CR, LF or NUL). */
const headerText = fc.string({
  unit: fc.mapToConstant({ num: 95, build: (v) => String.fromCharCode(0x20 + v) }, { num: 1, build: () => '\t' }),
  maxLength: 60,
});

export const CURSOR_PROFILE = 'https://jsonapi.org/profiles/ethanresnick/cursor-pagination';

export const acceptHeader: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/vnd.api+json') },
  { weight: 2, arbitrary: fc.constant(undefined) },
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      '*/*',
      'application/json',
      'application/*',
      'text/html',
      'text/html, */*;q=0.1',
      'application/vnd.api+json; charset=utf-8',
      'application/vnd.api+json; ext="https://example.org/ext"',
      'application/vnd.api+json; ext=""',
      `application/vnd.api+json; profile="${CURSOR_PROFILE}"`,
      `application/vnd.api+json; profile="${CURSOR_PROFILE} https://example.org/other"`,
      'application/vnd.api+json; profile="https://example.org/unknown"',
      'application/vnd.api+json;q=0',
      'application/vnd.api+json;q=0, */*',
      'application/vnd.api+json; charset=utf-8, application/vnd.api+json',
      'application/vnd.api+json; profile="unterminated',
      ';;;',
      ',',
      '*',
      'application/vnd.api+json; q=abc',
      'APPLICATION/VND.API+JSON',
    ),
  },
  { weight: 1, arbitrary: headerText },
);

export const contentTypeHeader: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/vnd.api+json',
      'application/vnd.api+json; charset=utf-8',
      'application/vnd.api+json; ext="https://example.org/ext"',
      `application/vnd.api+json; profile="${CURSOR_PROFILE}"`,
      'application/json',
      'text/plain',
      'multipart/form-data; boundary=x',
      'application/vnd.api+json;;',
      '',
    ),
  },
  { weight: 1, arbitrary: headerText },
);

export const ifNoneMatchHeader: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  {
    weight: 3,
    arbitrary: fc.constantFrom('*', '"abc"', 'W/"abc"', '"a", "b"', 'W/', '""', '"unterminated', ',', 'W/"x", *'),
  },
  { weight: 1, arbitrary: headerText },
);

export const originHeader: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.constantFrom('https://app.example.org', 'null', 'http://127.0.0.1:1', 'file://', '*') },
  { weight: 1, arbitrary: headerText },
);

export interface HeaderSeed {
  readonly accept: string | undefined;
  readonly contentType: string | undefined;
  readonly ifNoneMatch: string | undefined;
  readonly origin: string | undefined;
  readonly preflight: boolean;
}

export const headerSeed: fc.Arbitrary<HeaderSeed> = fc.record({
  accept: acceptHeader,
  contentType: contentTypeHeader,
  ifNoneMatch: ifNoneMatchHeader,
  origin: originHeader,
  preflight: fc.boolean(),
});

export function renderHeaders(seed: HeaderSeed, method: string): Record<string, string> {
  const headers: Record<string, string> = {};
  if (seed.accept !== undefined) headers.Accept = seed.accept;
  if (seed.contentType !== undefined) headers['Content-Type'] = seed.contentType;
  if (seed.ifNoneMatch !== undefined) headers['If-None-Match'] = seed.ifNoneMatch;
  if (seed.origin !== undefined) headers.Origin = seed.origin;
  if (method === 'OPTIONS' && seed.preflight) {
    headers['Access-Control-Request-Method'] = 'GET';
    headers['Access-Control-Request-Headers'] = 'if-none-match, accept';
  }
  return headers;
}

/** Methods Node's client can send; CONNECT is sent too, and may be answered by closing the connection. */
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT', 'PROPFIND'];

export const methodArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('GET', 'HEAD') },
  { weight: 3, arbitrary: fc.constantFrom(...METHODS) },
);
