import { beforeAll, describe, expect, it } from 'vitest';
import { JsonApiError } from '../../../src/errors/json-api-error.js';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import type { Mapping } from '../../../src/mapping/model.js';
import { muFilterParameter } from '../../../src/request/mu-filter.js';
import { FILTER_OPERATORS, type Filter, parseFilter } from '../../../src/request/parse-filter.js';
import { parseQuery } from '../../../src/request/parse-query.js';
import { thrown as thrownError } from '../../support/thrown.js';

let mapping: Mapping;

beforeAll(async () => {
  mapping = await loadMapping('mappings/sample.yaml');
});

const MU = 'mu-cl-resources' as const;
const thrown = (fn: () => unknown) => thrownError(JsonApiError, fn);

/** The filters of `query` with the mu syntax switched on (`mu: true`) or off. */
const parse = (query: string, type: string, mu: boolean) =>
  parseFilter(parseQuery(query, mu ? MU : 'json-api').filter, mapping, mapping.types.get(type)!, {
    syntax: mu ? MU : 'json-api',
  });

/** A filter without the parameter it came from, so that a mu filter and its native twin compare equal. */
const meaning = (filters: Filter[]) => filters.map(({ parameter: _, ...rest }) => rest);

/** The native parameter a mu parameter becomes (name, members and value). */
const translate = (query: string, type: string) => {
  const [parameter] = parseQuery(query, MU).filter;
  return muFilterParameter(parameter!, mapping, mapping.types.get(type)!, FILTER_OPERATORS);
};

describe('mu-cl-resources filters: each mu form means a native filter', () => {
  it.each([
    // [type, mu query, the native query it means]
    ['aid-activities', 'filter[title]=roads', 'filter[title][contains]=roads'],
    ['aid-activities', 'filter[title]=a, b', String.raw`filter[title][contains]=a\, b`],
    ['aid-activities', String.raw`filter[title]=back\slash`, String.raw`filter[title][contains]=back\\slash`],
    ['aid-activities', 'filter[budget]=1000', 'filter[budget][eq]=1000'],
    ['aid-activities', 'filter[completed]=true', 'filter[completed][eq]=true'],
    ['aid-activities', 'filter[:exact:title]=Roads', 'filter[title][eq]=Roads'],
    ['aid-activities', 'filter[:exact:title]=A, B', String.raw`filter[title][eq]=A\, B`],
    ['aid-activities', 'filter[:not:title]=Roads', 'filter[title][ne]=Roads'],
    ['aid-activities', 'filter[:gt:budget]=1000', 'filter[budget][gt]=1000'],
    ['aid-activities', 'filter[:gte:budget]=1000', 'filter[budget][gte]=1000'],
    ['aid-activities', 'filter[:lt:budget]=1000', 'filter[budget][lt]=1000'],
    ['aid-activities', 'filter[:lte:budget]=1000', 'filter[budget][lte]=1000'],
    ['aid-activities', 'filter[:has:public-project]=t', 'filter[public-project][exists]=true'],
    ['aid-activities', 'filter[:has-no:public-project]=yes', 'filter[public-project][exists]=false'],
    ['aid-activities', 'filter[:has-no:budget]=true', 'filter[budget][exists]=false'],
    ['aid-activities', 'filter[public-project][title]=road', 'filter[public-project.title][contains]=road'],
    ['aid-activities', 'filter[public-project][:exact:title]=Road', 'filter[public-project.title][eq]=Road'],
    ['trade-activities', 'filter[:id:]=7c1e0a42,86b4c2aa', 'filter[id]=7c1e0a42,86b4c2aa'],
    ['trade-activities', 'filter[id]=7c1e0a42', 'filter[id]=7c1e0a42'],
    ['trade-activities', 'filter[concerns][:id:]=0101,0201', 'filter[concerns]=0101,0201'],
    ['trade-activities', 'filter[concerns][id]=0101', 'filter[concerns]=0101'],
    ['trade-activities', 'filter[concerns][label]=meat', 'filter[concerns.label][contains]=meat'],
    ['trade-activities', 'filter[origin][country][name]=gree', 'filter[origin.country.name][contains]=gree'],
    ['trade-activities', 'filter[origin][country][:exact:iso-code]=GR', 'filter[origin.country.iso-code][eq]=GR'],
    ['trade-activities', 'filter[origin][country][:id:]=4752', 'filter[origin.country]=4752'],
    ['trade-activities', 'filter[origin][:has-no:country]=t', 'filter[origin.country][exists]=false'],
    ['trade-activities', 'filter[:gte:financial-year]=2016-01-01Z', 'filter[financial-year][gte]=2016-01-01Z'],
    ['concepts', 'filter=oil', 'filter=oil'],
    // Native forms mu cannot have written keep their meaning.
    ['trade-activities', 'filter[concerns.notation]=0101', 'filter[concerns.notation]=0101'],
    ['trade-activities', 'filter[concerns][ne]=0201', 'filter[concerns][ne]=0201'],
    ['trade-activities', 'filter[financial-year][lt]=2014-01-01Z', 'filter[financial-year][lt]=2014-01-01Z'],
    ['aid-activities', 'filter[title][starts-with]=road', 'filter[title][starts-with]=road'],
    ['trade-activities', 'filter[destination][exists]=false', 'filter[destination][exists]=false'],
  ])('%s ?%s means ?%s', (type, mu, native) => {
    const [muFilter] = parse(mu, type, true);
    expect(muFilter!.parameter).toBe(parseQuery(mu, MU).filter[0]!.name);
    expect(meaning([muFilter!])).toEqual(meaning(parse(native, type, false)));
  });

  it('keeps the parameter as sent, for error sources', () => {
    expect(translate('filter[:exact:title]=x', 'aid-activities')).toEqual({
      name: 'filter[:exact:title]',
      members: ['title', 'eq'],
      value: 'x',
    });
  });

  it('reads a field of the relationship target before an operator of the same name', () => {
    // A target with an attribute named like an operator: [rel][eq] is mu's path to it.
    const tricky = { ...mapping, types: new Map(mapping.types) };
    const projects = tricky.types.get('public-projects')!;
    const eq = { ...projects.attributes.get('title')!, name: 'eq' };
    tricky.types.set('public-projects', { ...projects, attributes: new Map([...projects.attributes, ['eq', eq]]) });
    const [parameter] = parseQuery('filter[public-project][eq]=x', MU).filter;
    const aid = tricky.types.get('aid-activities')!;
    expect(muFilterParameter(parameter!, tricky, aid, FILTER_OPERATORS).members).toEqual([
      'public-project.eq',
      'contains',
    ]);
    expect(muFilterParameter(parameter!, mapping, aid, FILTER_OPERATORS).members).toEqual(['public-project', 'eq']);
  });
});

describe('mu-cl-resources filters: forms with no native meaning are 400s naming the parameter', () => {
  it.each([
    ['aid-activities', 'filter[:or:][title]=a', ':or: groups'],
    ['aid-activities', 'filter[:uri:]=http://example.org/x', ':uri:'],
    ['trade-activities', 'filter[concerns][:uri:]=http://example.org/x', ':uri:'],
    ['trade-activities', 'filter[concerns]=meat', 'searches every property'],
    ['aid-activities', 'filter[:fuzzy:title]=x', "Unknown mu-cl-resources filter modifier ':fuzzy:'"],
    ['aid-activities', 'filter[:exact:public-project]=x', "has no attribute 'public-project'"],
    ['aid-activities', 'filter[:gt:nothing]=1', "has no attribute 'nothing'"],
    ['aid-activities', 'filter[:has:nothing]=t', "no attribute or relationship 'nothing'"],
    ['aid-activities', 'filter[nothing]=x', "no attribute or relationship 'nothing'"],
    ['aid-activities', 'filter[title][budget]=x', "'title' is not a relationship of aid-activities"],
    ['aid-activities', 'filter[:id:x]=1', "':id:' takes no field name"],
  ])('%s ?%s', (type, query, detail) => {
    const error = thrown(() => parse(query, type, true));
    expect(error.status).toBe(400);
    expect(error.errors[0]!.source).toEqual({ parameter: parseQuery(query, MU).filter[0]!.name });
    expect(error.errors[0]!.detail).toContain(detail);
    expect(error.errors[0]!.detail).toContain('mu-cl-resources filter');
  });

  it('checks values as the native filter does, naming the mu parameter', () => {
    const error = thrown(() => parse('filter[:gt:budget]=lots', 'aid-activities', true));
    expect(error.errors[0]!.source).toEqual({ parameter: 'filter[:gt:budget]' });
    expect(error.errors[0]!.detail).toContain("'lots' is not a value of 'budget'");
  });
});

describe('mu-cl-resources filters: switched off', () => {
  it('refuses mu parameter names exactly as before', () => {
    const error = thrown(() => parseQuery('filter[:exact:title]=x'));
    expect(error.errors[0]!.source).toEqual({ parameter: 'filter[:exact:title]' });
    expect(error.errors[0]!.detail).toContain('not a valid query parameter name');
  });

  it('reads filter[attribute]=v as equality, not contains', () => {
    expect(meaning(parse('filter[title]=roads', 'aid-activities', false))).toEqual(
      meaning(parse('filter[title][eq]=roads', 'aid-activities', false)),
    );
  });

  it('takes only :modifier: members in mu mode, not other colons', () => {
    expect(thrown(() => parseQuery('filter[a:b]=x', MU)).errors[0]!.source).toEqual({ parameter: 'filter[a:b]' });
    expect(thrown(() => parseQuery('sort[:x:]=x', MU)).errors[0]!.source).toEqual({ parameter: 'sort[:x:]' });
  });
});
