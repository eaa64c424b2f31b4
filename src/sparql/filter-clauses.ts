import type { Expression, Pattern, SelectQuery, VariableTerm } from 'sparqljs';
import type { IdLookup } from '../mapping/ids.js';
import type { Mapping, ResourceType } from '../mapping/model.js';
import type { FilterPath } from '../request/filter-path.js';
import { valueOrder } from '../request/filter-values.js';
import type { Filter } from '../request/parse-filter.js';
import { bgp, filter, iri, literal, op, str, triple, values, variable } from './ast.js';
import { compareNumber, textConstant } from './comparable.js';
import { hopPatterns, idVariable } from './members.js';
import { textKey } from './text-key.js';

const COMPARE: Record<'eq' | 'lt' | 'lte' | 'gt' | 'gte', string> = { eq: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' };

/**
 * The patterns that keep only the members bound to `subject` that pass every filter; they share
 * a group with the member patterns (and nothing else: Virtuoso loses a FILTER that shares its
 * group with a BIND, and the list query adds sort BINDs). A filter on a path keeps the resources
 * with a matching value: a join with the sub-query `SELECT DISTINCT ?s` of those resources, so a
 * resource with several values matches when any does, and comes out once. `ne` and
 * `exists=false` are a MINUS of the same, so they hold for a resource without a value.
 * Joins rather than FILTER (NOT) EXISTS: Oxigraph evaluates an EXISTS afresh for every row (a
 * path filter over 700 resources took 0.7 s, the join 30 ms), and Virtuoso drops an EXISTS
 * inside an OPTIONAL (where a related collection's members are). Every client value is a literal
 * term or an IRI that id validation built. (The filters were resolved against `type` already.)
 *
 * @example filterPatterns(mapping, tradeActivities, parseFilter(parseQuery('filter[concerns.notation]=0101').filter, mapping, tradeActivities), variable('s'))
 */
export function filterPatterns(
  mapping: Mapping,
  _type: ResourceType,
  filters: readonly Filter[],
  subject: VariableTerm,
): Pattern[] {
  return filters.flatMap((f, i) => {
    const condition = filterCondition(mapping, f, subject, `f${i}`);
    if (condition === true) return [];
    if (condition === false) return [filter(literal('false', 'http://www.w3.org/2001/XMLSchema#boolean'))];
    if ('expression' in condition) return [filter(condition.expression)];
    return [condition.keep ? having(subject, condition.patterns) : { type: 'minus', patterns: condition.patterns }];
  });
}

/** What one filter asks: an expression on the member itself, or that some path match does (not) exist; `true`/`false` when it holds for every/no member. */
type Condition =
  | boolean
  | { readonly expression: Expression }
  | { readonly keep: boolean; readonly patterns: Pattern[] };

function filterCondition(mapping: Mapping, f: Filter, subject: VariableTerm, name: string): Condition {
  switch (f.kind) {
    case 'search': {
      const [predicate, value] = [variable(`${name}_p`), variable(name)];
      const rows = [...new Set(f.attributes.map((a) => a.predicate))].map((p) => ({ [predicate.value]: iri(p) }));
      return {
        keep: true,
        patterns: [
          values(rows),
          bgp(triple(subject, predicate, value)),
          filter(op('contains', op('lcase', str(value)), op('lcase', literal(f.text)))),
        ],
      };
    }
    case 'exists': {
      const { patterns } = walk(mapping, f.path, subject, name);
      return { keep: f.exists, patterns };
    }
    case 'ids': {
      if (f.lookups.length === 0) return f.operator === 'ne';
      const { patterns, end } = walk(mapping, f.path, subject, name);
      const test = idTest(f.path.type, f.lookups, end);
      // The listed resource's own id needs no join: its member patterns bind it already.
      if (f.path.hops.length === 0) return { expression: f.operator === 'eq' ? test : op('!', test) };
      return { keep: f.operator === 'eq', patterns: [...patterns, filter(test)] };
    }
    case 'text':
    case 'typed': {
      const { patterns, end } = walk(mapping, f.path, subject, name);
      const test = f.kind === 'text' ? textTest(f, end) : typedTest(f, end);
      return { keep: f.operator !== 'ne', patterns: [...patterns, filter(test)] };
    }
  }
}

/** A comparison filter (`ne` is `eq`'s MINUS, so compared as `eq`). */
type ValueFilter<Kind extends 'text' | 'typed'> = Extract<Filter, { kind: Kind }>;
const compared = (f: ValueFilter<'text' | 'typed'>) => (f.operator === 'ne' ? 'eq' : f.operator);

/**
 * The test of a text filter on the value `end`: text compares STR(), so "x", "x"^^xsd:string and
 * "x"@en are one text (Virtuoso keeps the first two apart); order comparisons in code point order
 * (`text-key.ts`).
 */
function textTest(f: ValueFilter<'text'>, end: VariableTerm): Expression {
  const operator = compared(f);
  const read = str(end);
  const terms = f.values.map((v) => textConstant(v));
  if (operator === 'contains' || operator === 'starts-with') {
    const test = operator === 'contains' ? 'contains' : 'strstarts';
    return anyOf(terms.map((term) => op(test, op('lcase', read), op('lcase', term))));
  }
  return operator === 'eq' ? op('in', read, terms) : op(COMPARE[operator], textKey(read), textKey(terms[0]!));
}

/**
 * The test of a typed filter on the value `end`: numbers compare as comparable.ts reads them;
 * other typed values are read as the filter's datatype, so that plain literals of an attribute
 * whose mapping gives a datatype compare too.
 */
function typedTest(f: ValueFilter<'typed'>, end: VariableTerm): Expression {
  const operator = compared(f);
  if (valueOrder(f.path.attribute) === 'number' && operator !== 'contains' && operator !== 'starts-with') {
    const compare = (lexical: string) =>
      compareNumber(f.path.attribute, end, COMPARE[operator] as '=' | '<' | '<=' | '>' | '>=', lexical);
    return anyOf(f.values.map((v) => compare(v.lexical)));
  }
  const read = op('strdt', str(end), iri(f.values[0]!.datatype));
  const terms = f.values.map((v) => literal(v.lexical, v.datatype));
  return operator === 'eq' ? op('in', read, terms) : op(COMPARE[operator as keyof typeof COMPARE], read, terms[0]!);
}

/**
 * Patterns that bind the path's end to `name` (an attribute value) or to the related resource:
 * each hop's target must be a member of its type, as everywhere else.
 */
function walk(
  mapping: Mapping,
  path: FilterPath,
  subject: VariableTerm,
  name: string,
): { patterns: Pattern[]; end: VariableTerm } {
  const last = path.hops.length - 1;
  const { patterns, end: from } = hopPatterns(mapping, path.hops, {
    from: subject,
    target: (j) => (j === last && path.kind === 'ids' ? variable(name) : variable(`${name}_${j}`)),
  });
  if (path.kind === 'ids') return { patterns, end: from };
  const value = variable(name);
  patterns.push(bgp(triple(from, iri(path.attribute.predicate), value)));
  return { patterns, end: value };
}

/** `resource` has one of the ids: its IRI, or (predicate strategy) its id literal's text. */
function idTest(type: ResourceType, lookups: readonly IdLookup[], resource: VariableTerm): Expression {
  if (type.id.kind === 'predicate')
    return op(
      'in',
      str(idVariable(resource)),
      lookups.map((l) => literal(l.kind === 'literal' ? l.value : l.iri)),
    );
  return op(
    'in',
    resource,
    lookups.map((l) => iri(l.kind === 'iri' ? l.iri : l.value)),
  );
}

function anyOf(tests: Expression[]): Expression {
  return tests.reduce((a, b) => op('||', a, b));
}

/** `{ SELECT DISTINCT ?s WHERE { … } }`: the resources with a match, each once, to join with. */
function having(subject: VariableTerm, patterns: Pattern[]): Pattern {
  const query: SelectQuery = {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    distinct: true,
    variables: [subject],
    where: patterns,
  };
  return { type: 'group', patterns: [query] };
}
