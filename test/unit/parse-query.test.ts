import { describe, expect, it } from 'vitest';
import { JsonApiError } from '../../src/errors/json-api-error.js';
import { thrown as thrownError } from '../support/thrown.js';
import { parseQuery } from '../../src/request/parse-query.js';

const thrown = (fn: () => unknown) => thrownError(JsonApiError, fn);

describe('parseQuery: accepted query strings', () => {
  it.each([
    { input: '', expected: {} },
    { input: 'sort=x', expected: { sort: 'x' } },
    { input: 'sort=-financial-year,id', expected: { sort: '-financial-year,id' } },
    { input: 'sort=origin.country.name', expected: { sort: 'origin.country.name' } },
    // The value is handed on decoded; an empty value is parseSort's business (it rejects it).
    { input: 'sort=', expected: { sort: '' } },
    { input: 'sort', expected: { sort: '' } },
    { input: 'sort=%2Did', expected: { sort: '-id' } },
    // Percent-encoded names are decoded before they are checked.
    { input: '%73ort=x', expected: { sort: 'x' } },
    { input: 'so%72t=-id', expected: { sort: '-id' } },
    // Empty pairs carry no parameter.
    { input: '&sort=x&', expected: { sort: 'x' } },
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
    // JSON:API families this server does not implement yet: named exactly as sent.
    { input: 'include=x', parameter: 'include', detail: [/'include'/, /not supported .*yet/] },
    { input: 'include=', parameter: 'include', detail: [/'include'/, /not supported .*yet/] },
    { input: 'fields[concepts]=label', parameter: 'fields[concepts]', detail: [/'fields'/, /not supported .*yet/] },
    { input: 'fields%5Bconcepts%5D=label', parameter: 'fields[concepts]', detail: [/'fields'/, /not supported .*yet/] },
    { input: 'page[number]=1', parameter: 'page[number]', detail: [/'page'/, /not supported .*yet/] },
    { input: 'page[size]=10', parameter: 'page[size]', detail: [/'page'/, /not supported .*yet/] },
    { input: 'filter[x]=1', parameter: 'filter[x]', detail: [/'filter'/, /not supported .*yet/] },
    { input: 'filter=x', parameter: 'filter', detail: [/'filter'/, /not supported .*yet/] },
    { input: 'filter[]=x', parameter: 'filter[]', detail: [/'filter'/, /not supported .*yet/] },
    { input: 'filter[x][y]=1', parameter: 'filter[x][y]', detail: [/'filter'/, /not supported .*yet/] },
    // JSON:API 1.1 lists filter[x.y] as a member of the filter family (dot-separated member names).
    { input: 'filter[x.y]=1', parameter: 'filter[x.y]', detail: [/'filter'/, /not supported .*yet/] },
    { input: 'sort=x&include=y', parameter: 'include', detail: [/'include'/, /not supported .*yet/] },
    // All-lowercase names are reserved by JSON:API.
    { input: 'foo=1', parameter: 'foo', detail: [/'foo'/, /reserved by JSON:API/, /supported: sort/] },
    { input: 'sorting=x', parameter: 'sorting', detail: [/'sorting'/, /reserved by JSON:API/, /supported: sort/] },
    // Implementation-specific names (a non a-z character) this server does not know.
    { input: 'myParam=1', parameter: 'myParam', detail: [/Unknown query parameter 'myParam'/, /supported: sort/] },
    { input: 'my-param=1', parameter: 'my-param', detail: [/Unknown query parameter 'my-param'/, /supported: sort/] },
    { input: 'Sort=x', parameter: 'Sort', detail: [/Unknown query parameter 'Sort'/, /supported: sort/] },
    { input: 'sort[x]=1', parameter: 'sort[x]', detail: [/Unknown query parameter 'sort\[x\]'/, /supported: sort/] },
    { input: 'foo[bar]=1', parameter: 'foo[bar]', detail: [/Unknown query parameter 'foo\[bar\]'/, /supported: sort/] },
    { input: 'sort=x&myParam=1', parameter: 'myParam', detail: [/'myParam'/, /supported: sort/] },
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
