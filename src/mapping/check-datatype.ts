import leven from 'leven';
import { RDF_LANG_STRING, XSD, XSD_DATATYPE_NAMES } from '../rdf/vocabulary.js';

const KNOWN = new Set(XSD_DATATYPE_NAMES);

/**
 * What a mapping's `datatype` IRI is worth: `undefined` for an XSD datatype (or `rdf:langString`);
 * a problem for a name in the XSD namespace that XSD does not define (a typo such as `xsd:decmal`
 * would otherwise load, and the attribute sort and filter as text), naming the closest datatype
 * that is; a warning for a datatype outside XSD, which the server takes as it is (its values
 * compare as text).
 *
 * @example checkDatatype(XSD + 'decmal', 'xsd:decmal') // { problem: "'xsd:decmal' is no XSD datatype; did you mean xsd:decimal?" }
 * @example checkDatatype('http://www.opengis.net/ont/geosparql#wktLiteral', 'geo:wktLiteral') // { warning: … }
 */
export function checkDatatype(
  iri: string,
  written: string,
): { readonly problem: string } | { readonly warning: string } | undefined {
  if (iri === RDF_LANG_STRING) return undefined;
  if (!iri.startsWith(XSD))
    return {
      warning: `'${written}' is not an XSD datatype: its values are kept as they are and sort and filter as text`,
    };
  const name = iri.slice(XSD.length);
  if (KNOWN.has(name)) return undefined;
  const closest = closestName(name);
  return {
    problem: `'${written}' is no XSD datatype; did you mean xsd:${closest}?`,
  };
}

/** The XSD datatype name nearest to `name` by edit distance, case aside (`Integer` → `integer`). */
function closestName(name: string): string {
  let best = XSD_DATATYPE_NAMES[0]!;
  let distance = Number.POSITIVE_INFINITY;
  for (const candidate of XSD_DATATYPE_NAMES) {
    const d = leven(name.toLowerCase(), candidate.toLowerCase());
    if (d < distance) [best, distance] = [candidate, d];
  }
  return best;
}
