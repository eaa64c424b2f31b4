import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parsedTarget } from '../../../src/http/parsed-target.js';
import { routeLabel } from '../../../src/http/route-label.js';

const DATASETS: ReadonlySet<string> = new Set(['sample', 'mirror']);

describe('routeLabel', () => {
  it.each([
    ['/health', { dataset: '', route: '/health' }],
    ['/metrics', { dataset: '', route: '/metrics' }],
    ['/concepts', { dataset: 'sample', route: '/:type' }],
    ['/concepts/', { dataset: 'sample', route: '/:type' }],
    ['/concepts/0101', { dataset: 'sample', route: '/:type/:id' }],
    ['/concepts/0101/broader-concepts', { dataset: 'sample', route: '/:type/:id/:relationship' }],
    ['/concepts/0101/links/broader-concepts', { dataset: 'sample', route: '/:type/:id/links/:relationship' }],
    [
      '/concepts/0101/relationships/broader-concepts',
      { dataset: 'sample', route: '/:type/:id/relationships/:relationship' },
    ],
    ['/api/mirror/concepts/0101', { dataset: 'mirror', route: '/:type/:id' }],
    ['/api/other/concepts', { dataset: '', route: '/:type' }],
    ['/concepts/0101/links/a/b', { dataset: '', route: 'unmatched' }],
    ['/%E0%A4%A', { dataset: '', route: 'unmatched' }],
    ['/', { dataset: '', route: 'unmatched' }],
  ])('%s → %j', (path, expected) => {
    const req = new IncomingMessage(new Socket());
    req.url = `${path}?sort=-label`;
    expect(routeLabel(req, DATASETS, 'sample')).toEqual(expected);
  });

  it("routeLabel reuses the request's parsed route", () => {
    const req = new IncomingMessage(new Socket());
    req.url = '/concepts/0101';
    const route = parsedTarget(req).route();
    expect(routeLabel(req, DATASETS, 'sample').route).toBe('/:type/:id');
    expect(parsedTarget(req).route()).toBe(route);
  });
});
