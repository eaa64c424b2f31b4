import { describe, expect, it } from 'vitest';
import { JsonApiError } from '../../../src/errors/json-api-error.js';
import { parseQuery } from '../../../src/request/parse-query.js';
import { thrown as thrownError } from '../../support/thrown.js';

const thrown = (fn: () => unknown) => thrownError(JsonApiError, fn);

const none = { fields: [], page: [], filter: [] };

describe('parseQuery: accepted query strings', () => {
  it.each([
    { input: '', expected: none },
    { input: 'sort=x', expected: { ...none, sort: 'x' } },
    { input: 'sort=-financial-year,id', expected: { ...none, sort: '-financial-year,id' } },
    { input: 'sort=origin.country.name', expected: { ...none, sort: 'origin.country.name' } },
    // The value is handed on decoded; an empty value is parseSort's business (it rejects it).
    { input: 'sort=', expected: { ...none, sort: '' } },
    { input: 'sort', expected: { ...none, sort: '' } },
    { input: 'sort=%2Did', expected: { ...none, sort: '-id' } },
    // Percent-encoded names are decoded before they are checked.
    { input: '%73ort=x', expected: { ...none, sort: 'x' } },
    { input: 'so%72t=-id', expected: { ...none, sort: '-id' } },
    // Empty pairs carry no parameter.
    { input: '&sort=x&', expected: { ...none, sort: 'x' } },
    {
      input: 'include=concerns.broader-concepts,origin',
      expected: { ...none, include: 'concerns.broader-concepts,origin' },
    },
    { input: 'include=', expected: { ...none, include: '' } },
    // explain-plan (implementation-specific: a name with a character outside a-z), bare, 1 or true.
    { input: 'explain-plan', expected: { ...none, explain: 'analysed' } },
    { input: 'explain-plan=dry', expected: { ...none, explain: 'dry' } },
    { input: 'sort=x&explain-plan=1', expected: { ...none, sort: 'x', explain: 'analysed' } },
    { input: 'explain%2Dplan=true', expected: { ...none, explain: 'analysed' } },
    // Families with members: each parameter with its name as sent, its members and its value.
    {
      input: 'fields[concepts]=label,notation',
      expected: { ...none, fields: [{ name: 'fields[concepts]', members: ['concepts'], value: 'label,notation' }] },
    },
    {
      input: 'fields%5Bconcepts%5D=',
      expected: { ...none, fields: [{ name: 'fields[concepts]', members: ['concepts'], value: '' }] },
    },
    {
      input: 'page[number]=1&page[size]=5',
      expected: {
        ...none,
        page: [
          { name: 'page[number]', members: ['number'], value: '1' },
          { name: 'page[size]', members: ['size'], value: '5' },
        ],
      },
    },
    {
      input: 'page[after]=abc',
      expected: { ...none, page: [{ name: 'page[after]', members: ['after'], value: 'abc' }] },
    },
    {
      input: 'page[offset]=10&page[limit]=5',
      expected: {
        ...none,
        page: [
          { name: 'page[offset]', members: ['offset'], value: '10' },
          { name: 'page[limit]', members: ['limit'], value: '5' },
        ],
      },
    },
    { input: 'filter=x', expected: { ...none, filter: [{ name: 'filter', members: [], value: 'x' }] } },
    { input: 'filter[]=x', expected: { ...none, filter: [{ name: 'filter[]', members: [''], value: 'x' }] } },
    {
      input: 'filter[concerns.notation][eq]=0101',
      expected: {
        ...none,
        filter: [{ name: 'filter[concerns.notation][eq]', members: ['concerns.notation', 'eq'], value: '0101' }],
      },
    },
    {
      input: 'filter[a]=1&filter[a][ne]=2',
      expected: {
        ...none,
        filter: [
          { name: 'filter[a]', members: ['a'], value: '1' },
          { name: 'filter[a][ne]', members: ['a', 'ne'], value: '2' },
        ],
      },
    },
  ])('$input', ({ input, expected }) => {
    expect(parseQuery(input)).toEqual(expected);
  });
});

describe('parseQuery: rejected query strings', () => {
  it.each([
    // Given twice: even with the same value, or once encoded.
    { input: 'sort=a&sort=b', parameter: 'sort', detail: [/'sort'/, /more than once/] },
    { input: 'sort=a&sort=a', parameter: 'sort', detail: [/'sort'/, /more than once/] },
    { input: 'sort=a&%73ort=b', parameter: 'sort', detail: [/'sort'/, /more than once/] },
    { input: 'include=a&include=b', parameter: 'include', detail: [/'include'/, /more than once/] },
    { input: 'page[size]=1&page%5Bsize%5D=2', parameter: 'page[size]', detail: [/more than once/] },
    // Family members this server does not know, or in a shape the family does not take.
    { input: 'fields=label', parameter: 'fields', detail: [/fields\[type\]/] },
    { input: 'fields[]=label', parameter: 'fields[]', detail: [/fields\[type\]/] },
    { input: 'fields[a.b]=label', parameter: 'fields[a.b]', detail: [/fields\[type\]/] },
    { input: 'fields[a][b]=label', parameter: 'fields[a][b]', detail: [/fields\[type\]/] },
    { input: 'page=1', parameter: 'page', detail: [/Unknown page parameter/, /page\[number\]/] },
    { input: 'page[cursor]=1', parameter: 'page[cursor]', detail: [/Unknown page parameter 'page\[cursor\]'/] },
    { input: 'page[size][x]=1', parameter: 'page[size][x]', detail: [/Unknown page parameter/] },
    { input: 'include[x]=a', parameter: 'include[x]', detail: [/Unknown query parameter 'include\[x\]'/] },
    { input: 'explain-plan=0', parameter: 'explain-plan', detail: [/takes no value/] },
    { input: 'explain-plan&explain-plan=1', parameter: 'explain-plan', detail: [/more than once/] },
    { input: 'explain-plan[x]', parameter: 'explain-plan[x]', detail: [/Unknown query parameter/] },
    // All-lowercase names are reserved by JSON:API.
    { input: 'foo=1', parameter: 'foo', detail: [/'foo'/, /reserved by JSON:API/, /supported: sort, include/] },
    {
      input: 'sorting=x',
      parameter: 'sorting',
      detail: [/'sorting'/, /reserved by JSON:API/, /supported: sort, include/],
    },
    // Implementation-specific names (a non a-z character) this server does not know.
    {
      input: 'myParam=1',
      parameter: 'myParam',
      detail: [/Unknown query parameter 'myParam'/, /supported: sort, include/],
    },
    {
      input: 'my-param=1',
      parameter: 'my-param',
      detail: [/Unknown query parameter 'my-param'/, /supported: sort, include/],
    },
    { input: 'Sort=x', parameter: 'Sort', detail: [/Unknown query parameter 'Sort'/, /supported: sort, include/] },
    {
      input: 'sort[x]=1',
      parameter: 'sort[x]',
      detail: [/Unknown query parameter 'sort\[x\]'/, /supported: sort, include/],
    },
    {
      input: 'foo[bar]=1',
      parameter: 'foo[bar]',
      detail: [/Unknown query parameter 'foo\[bar\]'/, /supported: sort, include/],
    },
    { input: 'sort=x&myParam=1', parameter: 'myParam', detail: [/'myParam'/, /supported: sort, include/] },
  ])('$input → 400 naming $parameter', ({ input, parameter, detail }) => {
    const error = thrown(() => parseQuery(input));
    expect(error.status).toBe(400);
    expect(error.errors).toHaveLength(1);
    const [object] = error.errors;
    expect(object).toMatchObject({ status: '400', title: 'Invalid query parameter', source: { parameter } });
    for (const pattern of detail) expect(object!.detail).toMatch(pattern);
  });

  /**
   * Names that are not JSON:API query parameter names at all: the base name must be a member name
   * (letters and digits at both ends; - and _ only inside), each [...] part empty, a member name or
   * a dot-separated list of them.
   */
  const INVALID = [/is not a valid query parameter name/, /member name/];
  it.each([
    { input: '_=1', parameter: '_' },
    { input: '-x=1', parameter: '-x' },
    { input: 'x-=1', parameter: 'x-' },
    { input: 'a b=1', parameter: 'a b' },
    { input: 'a+b=1', parameter: 'a b' },
    { input: 'a%20b=1', parameter: 'a b' },
    { input: 'sort[=1', parameter: 'sort[' },
    { input: 'sort%5B=1', parameter: 'sort[' },
    { input: 'sort]=1', parameter: 'sort]' },
    { input: '[x]=1', parameter: '[x]' },
    { input: '=1', parameter: '' },
    { input: 'a.b=1', parameter: 'a.b' },
    // `_` is not a member name (it may not start or end one), so not a family member either.
    { input: 'filter[_]=1', parameter: 'filter[_]' },
  ])('$input → 400: invalid name $parameter', ({ input, parameter }) => {
    const error = thrown(() => parseQuery(input));
    expect(error.status).toBe(400);
    const [object] = error.errors;
    expect(object).toMatchObject({ status: '400', title: 'Invalid query parameter', source: { parameter } });
    expect(object!.detail).toContain(`'${parameter}'`);
    for (const pattern of INVALID) expect(object!.detail).toMatch(pattern);
  });
});
