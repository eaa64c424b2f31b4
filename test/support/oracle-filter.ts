import type { Term } from '@rdfjs/types';
import type { Attribute, ResourceType } from '../../src/mapping/model.js';
import { codePointCompare, type Oracle, type Resource } from './oracle.js';

/**
 * The README's filter semantics, evaluated in plain JavaScript over the Turtle file: the
 * independent side of every filter assertion. It shares no code with the server's parser or
 * query builder; it reads the mapping for names and predicates only.
 */

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const NUMERIC = new Set(
  ['integer', 'int', 'long', 'short', 'byte', 'decimal', 'nonNegativeInteger', 'positiveInteger'].map((t) => XSD + t),
);

type Kind = 'number' | 'date' | 'boolean' | 'text';

function kindOf(attribute: Attribute): Kind {
  if (attribute.language !== undefined || attribute.datatype === undefined) return 'text';
  if (NUMERIC.has(attribute.datatype)) return 'number';
  if (attribute.datatype === `${XSD}date`) return 'date';
  if (attribute.datatype === `${XSD}boolean`) return 'boolean';
  return 'text';
}

/** Exact comparison of two decimal numerals (the sample has an integer beyond 2^53). */
function compareDecimals(a: string, b: string): number {
  const parse = (text: string) => {
    const [, sign = '', whole = '0', fraction = ''] = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim())!;
    return { negative: sign === '-', whole, fraction };
  };
  const [x, y] = [parse(a), parse(b)];
  const digits = Math.max(x.fraction.length, y.fraction.length);
  const scaled = (n: typeof x) => BigInt((n.negative ? '-' : '') + (n.whole || '0') + n.fraction.padEnd(digits, '0'));
  const [p, q] = [scaled(x), scaled(y)];
  return p < q ? -1 : p > q ? 1 : 0;
}

/** Dates as the sample writes them (with a Z), or any date-time JavaScript reads. */
function dateValue(text: string): number {
  const value = Date.parse(/^\d{4}-\d\d-\d\dZ$/.test(text) ? text.replace('Z', 'T00:00:00Z') : text);
  if (Number.isNaN(value)) throw new Error(`oracle: cannot read the date ${text}`);
  return value;
}

function compare(kind: Kind, a: string, b: string): number {
  if (kind === 'number') return compareDecimals(a, b);
  if (kind === 'date') return dateValue(a) - dateValue(b);
  if (kind === 'boolean') return Number(a === 'true' || a === '1') - Number(b === 'true' || b === '1');
  return codePointCompare(a, b);
}

/** Comma-separated values; `\,` is a comma and `\\` a backslash inside one. */
function values(raw: string): string[] {
  return raw
    .replace(/\\\\/g, '\u0000')
    .replace(/\\,/g, '\u0001')
    .split(',')
    .map((v) => v.replace(/\u0001/g, ',').replace(/\u0000/g, '\\'));
}

/** What a path reaches from one resource: attribute values, or related resources' ids. */
function reach(
  oracle: Oracle,
  type: ResourceType,
  resource: Resource,
  path: string[],
): { attribute?: Attribute; terms: string[]; ids: string[] } {
  if (path.length === 1 && path[0] === 'id') return { terms: [], ids: [resource.id] };
  let current = type;
  let at: Resource[] = [resource];
  for (const [index, name] of path.entries()) {
    const relationship = current.relationships.get(name);
    if (relationship) {
      at = at.flatMap((r) => oracle.related(current.name, r.iri, name));
      current = oracle.type(relationship.target);
      if (index === path.length - 1) return { terms: [], ids: at.map((r) => r.id) };
      continue;
    }
    const attribute = current.attributes.get(name)!;
    const terms: Term[] = at.flatMap((r) => oracle.objects(r.iri, attribute.predicate));
    return { attribute, terms: terms.map((t) => t.value), ids: [] };
  }
  throw new Error(`oracle: cannot follow ${path.join('.')}`);
}

function matches(oracle: Oracle, type: ResourceType, resource: Resource, name: string, raw: string): boolean {
  const brackets = /^filter(?:\[([^\]]*)\])?(?:\[([^\]]*)\])?$/.exec(name);
  if (!brackets) throw new Error(`oracle: not a filter: ${name}`);
  const [, path, operator = 'eq'] = brackets;
  if (path === undefined) {
    const text = raw.toLowerCase();
    return [...type.attributes.values()]
      .filter((a) => kindOf(a) === 'text')
      .some((a) => oracle.objects(resource.iri, a.predicate).some((t) => t.value.toLowerCase().includes(text)));
  }
  const reached = reach(oracle, type, resource, path.split('.'));
  const found = reached.attribute ? reached.terms : reached.ids;
  if (operator === 'exists') return found.length > 0 === (raw === 'true');
  const wanted = values(raw);
  if (!reached.attribute) {
    const any = found.some((id) => wanted.includes(id));
    return operator === 'ne' ? !any : any;
  }
  const kind = kindOf(reached.attribute);
  const test = (value: string, v: string): boolean => {
    switch (operator) {
      case 'eq':
      case 'ne':
        return compare(kind, value, v) === 0;
      case 'lt':
        return compare(kind, value, v) < 0;
      case 'lte':
        return compare(kind, value, v) <= 0;
      case 'gt':
        return compare(kind, value, v) > 0;
      case 'gte':
        return compare(kind, value, v) >= 0;
      case 'contains':
        return value.toLowerCase().includes(v.toLowerCase());
      case 'starts-with':
        return value.toLowerCase().startsWith(v.toLowerCase());
    }
    throw new Error(`oracle: no operator ${operator}`);
  };
  const any = found.some((value) => wanted.some((v) => test(value, v)));
  return operator === 'ne' ? !any : any;
}

/**
 * The resources that pass every `filter…` parameter of `query` (other parameters are ignored).
 *
 * @example filterResources(oracle, 'trade-activities', oracle.members('trade-activities'), 'filter[concerns.notation]=0101')
 */
export function filterResources(oracle: Oracle, typeName: string, resources: Resource[], query: string): Resource[] {
  const type = oracle.type(typeName);
  const filters = [...new URLSearchParams(query)].filter(([name]) => name.startsWith('filter'));
  return resources.filter((resource) => filters.every(([name, raw]) => matches(oracle, type, resource, name, raw)));
}
