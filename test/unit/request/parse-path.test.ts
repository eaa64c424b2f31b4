import { describe, expect, it } from 'vitest';
import { JsonApiError } from '../../../src/errors/json-api-error.js';
import { parsePath, type Route } from '../../../src/request/parse-path.js';
import { thrown as thrownError } from '../../support/thrown.js';

const thrown = (fn: () => unknown) => thrownError(JsonApiError, fn);

const d = undefined;

describe('parsePath: the four shapes', () => {
  it.each<{ input: string; expected: Route }>([
    // collection
    { input: '/concepts', expected: { dataset: d, type: 'concepts' } },
    { input: '/api/sample/concepts', expected: { dataset: 'sample', type: 'concepts' } },
    // single resource
    { input: '/concepts/0101', expected: { dataset: d, type: 'concepts', id: '0101' } },
    { input: '/api/sample/concepts/0101', expected: { dataset: 'sample', type: 'concepts', id: '0101' } },
    // related resource(s)
    {
      input: '/trade-activities/5a3f/concerns',
      expected: { dataset: d, type: 'trade-activities', id: '5a3f', relationship: 'concerns' },
    },
    {
      input: '/api/sample/trade-activities/5a3f/concerns',
      expected: { dataset: 'sample', type: 'trade-activities', id: '5a3f', relationship: 'concerns' },
    },
    // relationship (linkage), both spellings
    {
      input: '/trade-activities/5a3f/links/concerns',
      expected: { dataset: d, type: 'trade-activities', id: '5a3f', relationship: 'concerns', linkage: 'links' },
    },
    {
      input: '/api/sample/trade-activities/5a3f/links/concerns',
      expected: { dataset: 'sample', type: 'trade-activities', id: '5a3f', relationship: 'concerns', linkage: 'links' },
    },
    {
      input: '/trade-activities/5a3f/relationships/origin',
      expected: { dataset: d, type: 'trade-activities', id: '5a3f', relationship: 'origin', linkage: 'relationships' },
    },
    {
      input: '/api/other/trade-activities/5a3f/relationships/origin',
      expected: {
        dataset: 'other',
        type: 'trade-activities',
        id: '5a3f',
        relationship: 'origin',
        linkage: 'relationships',
      },
    },
    // one trailing slash is forgiven
    { input: '/concepts/', expected: { dataset: d, type: 'concepts' } },
    { input: '/api/sample/concepts/', expected: { dataset: 'sample', type: 'concepts' } },
    { input: '/concepts/0101/', expected: { dataset: d, type: 'concepts', id: '0101' } },
    {
      input: '/trade-activities/5a3f/links/concerns/',
      expected: { dataset: d, type: 'trade-activities', id: '5a3f', relationship: 'concerns', linkage: 'links' },
    },
    // segments are percent-decoded
    { input: '/concepts/01%2D01', expected: { dataset: d, type: 'concepts', id: '01-01' } },
    {
      input: '/trade%2Dactivities/5a3f/links/concern%73',
      expected: { dataset: d, type: 'trade-activities', id: '5a3f', relationship: 'concerns', linkage: 'links' },
    },
    { input: '/%61pi/sample/concepts', expected: { dataset: 'sample', type: 'concepts' } },
    {
      input: '/trade-activities/5a3f/%6Cinks/concerns',
      expected: { dataset: d, type: 'trade-activities', id: '5a3f', relationship: 'concerns', linkage: 'links' },
    },
    // a third segment that is neither links nor relationships is a relationship name
    { input: '/concepts/0101/links', expected: { dataset: d, type: 'concepts', id: '0101', relationship: 'links' } },
  ])('$input', ({ input, expected }) => {
    const route = parsePath(input);
    expect(route).toEqual(expected);
    // absent members are absent, not present-and-undefined
    expect(Object.keys(route).sort()).toEqual(Object.keys(expected).sort());
  });
});

describe('parsePath: no resource lives here', () => {
  it.each([
    { input: '/', detail: /No resource lives at \/\./ },
    { input: '', detail: /No resource lives at/ },
    { input: '/api', detail: /No resource lives at \/api\./ },
    { input: '/api/', detail: /No resource lives at \/api\/\./ },
    { input: '/api/x', detail: /No resource lives at \/api\/x\./ },
    { input: '/api/x/', detail: /No resource lives at \/api\/x\/\./ },
    { input: '/a/b/c/d/e', detail: /No resource lives at \/a\/b\/c\/d\/e\./ },
    { input: '/api/x/a/b/c/d/e', detail: /No resource lives at \/api\/x\/a\/b\/c\/d\/e\./ },
    { input: '/a/b/other/c', detail: /No resource lives at \/a\/b\/other\/c\./ },
    { input: '/a/b/LINKS/c', detail: /No resource lives at \/a\/b\/LINKS\/c\./ },
    { input: '/a//b', detail: /No resource lives at \/a\/\/b\./ },
    { input: '//a', detail: /No resource lives at \/\/a\./ },
    { input: '/a/b//', detail: /No resource lives at \/a\/b\/\/\./ },
    { input: '/a/b/links//', detail: /No resource lives at/ },
    { input: '/a/%E0%A4%A', detail: /not valid percent-encoded UTF-8/ },
    { input: '/a/%ff', detail: /not valid percent-encoded UTF-8/ },
    { input: '/a/%zz', detail: /not valid percent-encoded UTF-8/ },
    { input: '/%E0%A4%A/b', detail: /not valid percent-encoded UTF-8/ },
  ])('$input → 404', ({ input, detail }) => {
    const error = thrown(() => parsePath(input));
    expect(error.status).toBe(404);
    expect(error.errors).toEqual([{ status: '404', title: 'Not Found', detail: expect.stringMatching(detail) }]);
  });
});
