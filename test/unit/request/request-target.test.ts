import { describe, expect, it } from 'vitest';
import { requestTarget } from '../../../src/request/request-target.js';

describe('requestTarget', () => {
  it.each([
    ['/concepts', { path: '/concepts', query: '' }],
    ['/concepts?sort=-label', { path: '/concepts', query: 'sort=-label' }],
    ['/concepts?', { path: '/concepts', query: '' }],
    ['/concepts?a=1?b=2', { path: '/concepts', query: 'a=1?b=2' }],
    // A URL parser would read x as a host here, or throw on an empty one.
    ['//x/concepts', { path: '//x/concepts', query: '' }],
    ['//', { path: '//', query: '' }],
    ['/a/../concepts', { path: '/a/../concepts', query: '' }],
  ])('%j → %j', (target, expected) => {
    expect(requestTarget(target)).toEqual(expected);
  });
});
