import { RDF, XSD } from '../rdf/vocabulary.js';

/** Prefixes everyone knows, by namespace: a scaffold writes these names for these namespaces. */
const WELL_KNOWN: Readonly<Record<string, string>> = {
  [RDF]: 'rdf',
  [XSD]: 'xsd',
  'http://www.w3.org/2000/01/rdf-schema#': 'rdfs',
  'http://www.w3.org/2002/07/owl#': 'owl',
  'http://www.w3.org/2004/02/skos/core#': 'skos',
  'http://www.w3.org/2008/05/skos-xl#': 'skosxl',
  'http://www.w3.org/ns/shacl#': 'sh',
  'http://schema.org/': 'schema',
  'https://schema.org/': 'schema',
  'http://purl.org/dc/terms/': 'dcterms',
  'http://purl.org/dc/elements/1.1/': 'dc',
  'http://xmlns.com/foaf/0.1/': 'foaf',
  'http://www.w3.org/ns/dcat#': 'dcat',
  'http://www.w3.org/ns/prov#': 'prov',
  'http://www.w3.org/ns/org#': 'org',
  'http://www.w3.org/2006/vcard/ns#': 'vcard',
  'http://www.w3.org/2006/time#': 'time',
  'http://rdfs.org/ns/void#': 'void',
  'http://www.w3.org/2003/01/geo/wgs84_pos#': 'wgs',
  'http://www.opengis.net/ont/geosparql#': 'geo',
  'http://purl.org/goodrelations/v1#': 'gr',
  'http://mu.semte.ch/vocabularies/core/': 'mu',
  'http://qudt.org/schema/qudt/': 'qudt',
  'http://qudt.org/vocab/unit/': 'unit',
  'http://qudt.org/vocab/quantitykind/': 'quantitykind',
  'http://qudt.org/vocab/dimensionvector/': 'qkdv',
  'http://qudt.org/vocab/sou/': 'sou',
  'http://purl.org/linked-data/cube#': 'qb',
  'http://purl.org/vocab/vann/': 'vann',
  'http://www.w3.org/ns/sosa/': 'sosa',
  'http://www.w3.org/ns/ssn/': 'ssn',
  'http://purl.org/ontology/bibo/': 'bibo',
  'http://rdfs.org/sioc/ns#': 'sioc',
  'http://www.w3.org/ns/locn#': 'locn',
  'http://www.w3.org/ns/adms#': 'adms',
  'http://data.europa.eu/m8g/': 'cv',
  'http://linkedeconomy.org/ontology#': 'elod',
};

/** Names a prefix may not have: they would read as the scheme of an absolute IRI. */
const SCHEMES = new Set(['http', 'https', 'urn', 'file', 'mailto', 'tag', 'data', 'ftp']);
/** A prefix name the mapping loader and a reader both take. */
const PREFIX_NAME = /^[a-z][a-z0-9_-]{0,19}$/i;
/** A local part that reads well after `prefix:`; others are written as full IRIs. */
const LOCAL_PART = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
/** Path segments that say nothing about a vocabulary, so they make poor prefix names. */
const GENERIC = new Set([
  'ontology',
  'ontologies',
  'vocab',
  'vocabulary',
  'ns',
  'schema',
  'core',
  'def',
  'terms',
  'resource',
  'id',
  'owl',
  'rdf',
]);

/**
 * The namespace and local part of an IRI, split after its last `#` or `/`, or `undefined` when
 * the local part would not read well as a prefixed name.
 *
 * @example splitIri('http://www.w3.org/2004/02/skos/core#prefLabel') // ['http://www.w3.org/2004/02/skos/core#', 'prefLabel']
 */
export function splitIri(iri: string): [string, string] | undefined {
  const cut = Math.max(iri.lastIndexOf('#'), iri.lastIndexOf('/')) + 1;
  const local = iri.slice(cut);
  return cut > 0 && LOCAL_PART.test(local) && !local.endsWith('.') ? [iri.slice(0, cut), local] : undefined;
}

/** A guess at a namespace's prefix: its last meaningful path segment, else its host's first label. */
function guessPrefix(namespace: string): string | undefined {
  let url: URL;
  try {
    url = new URL(namespace);
  } catch {
    return undefined;
  }
  const segments = url.pathname
    .split('/')
    .map((s) => s.toLowerCase().replace(/[^a-z0-9]/g, ''))
    .filter((s) => /^[a-z][a-z0-9]{1,15}$/.test(s) && !GENERIC.has(s) && !/^v?\d/.test(s));
  const host = url.hostname
    .replace(/^www\./, '')
    .split('.')[0]
    ?.toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  return segments.at(-1) ?? (host && /^[a-z]/.test(host) ? host.slice(0, 16) : undefined);
}

/**
 * Prefixes for the IRIs a mapping writes: for each namespace one name, the data's own when its
 * files declare one (`declared`, namespace → name), else a well-known one, else a guess; every
 * name distinct. Returns name → namespace, for the namespaces of `iris` only.
 *
 * @example choosePrefixes(['http://www.w3.org/2004/02/skos/core#Concept'], {}) // { skos: 'http://www.w3.org/2004/02/skos/core#' }
 */
export function choosePrefixes(
  iris: Iterable<string>,
  declared: Readonly<Record<string, string>>,
): Record<string, string> {
  const namespaces = [...new Set([...iris].flatMap((iri) => splitIri(iri)?.[0] ?? []))].sort();
  const byName: Record<string, string> = {};
  const usable = (name: string | undefined): name is string =>
    name !== undefined && PREFIX_NAME.test(name) && !SCHEMES.has(name.toLowerCase()) && !(name in byName);
  // Declared and well-known names first, so a guess never takes a name the data uses.
  const pending: string[] = [];
  for (const namespace of namespaces) {
    const name = [declared[namespace], WELL_KNOWN[namespace]].find(usable);
    if (name === undefined) pending.push(namespace);
    else byName[name] = namespace;
  }
  for (const namespace of pending) {
    const guess = guessPrefix(namespace) ?? 'ns';
    let name = guess;
    for (let n = 2; !usable(name); n++) name = `${guess}${n}`;
    byName[name] = namespace;
  }
  return byName;
}

/**
 * An IRI as the mapping writes it: `prefix:local` when a prefix covers it and the local part
 * reads well, else the IRI itself.
 *
 * @example compact('http://www.w3.org/2004/02/skos/core#prefLabel', new Map([['http://www.w3.org/2004/02/skos/core#', 'skos']])) // 'skos:prefLabel'
 */
export function compact(iri: string, nameOf: ReadonlyMap<string, string>): string {
  const split = splitIri(iri);
  const name = split && nameOf.get(split[0]);
  return split && name !== undefined ? `${name}:${split[1]}` : iri;
}
