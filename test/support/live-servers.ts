import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { expect } from 'vitest';
import { createApp } from '../../src/app.js';
import type { ChangeSet } from '../../src/live/delta-body.js';
import type { DeltaListenerOptions } from '../../src/live/delta-listener.js';
import type { Mapping } from '../../src/mapping/model.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient, CURSOR_PAGE } from './api-client.js';

/** Listens on an ephemeral loopback port; resolves the base URL and a close. */
export async function listenOn(app: { listen: (port: number, host: string) => Server }) {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A server fed deltas with both caches on without expiry: its public client and its listener's URL. */
export interface FedServer {
  readonly api: ApiClient;
  readonly deltaUrl: string;
  close(): Promise<void>;
}

/** The sample dataset served with every cache on and a delta listener (with `deltas`' token and limit). */
export async function fedServer(
  mapping: Mapping,
  store: Store,
  graph?: string,
  deltas: DeltaListenerOptions = {},
): Promise<FedServer> {
  const app = createApp({
    datasets: [
      {
        name: 'sample',
        mapping,
        store,
        linkBase: '',
        ...(graph && { graph }),
        options: { cacheTtlSeconds: Number.POSITIVE_INFINITY, windowCacheTtlSeconds: Number.POSITIVE_INFINITY },
      },
    ],
    deltas,
  });
  const api = await ApiClient.listen(app);
  const listener = await listenOn(app.locals.deltaListener);
  return {
    api,
    deltaUrl: `${listener.url}/.mu/delta`,
    close: async () => {
      await Promise.all([api.close(), listener.close()]);
    },
  };
}

/** The sample dataset served with every cache off: the oracle. */
export function plainServer(mapping: Mapping, store: Store): Promise<ApiClient> {
  return ApiClient.listen(plainApp(mapping, store));
}

/** The oracle's app, for a suite that starts one per round and reads it raw (no ApiClient checks). */
export function plainApp(mapping: Mapping, store: Store): Express {
  return createApp({
    datasets: [
      { name: 'sample', mapping, store, linkBase: '', options: { cacheTtlSeconds: 0, windowCacheTtlSeconds: 0 } },
    ],
  });
}

/** Posts a delta as delta-notifier does; resolves the status. */
export async function postDelta(url: string, body: ChangeSet[] | string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** The URLs the suites compare: collections sorted, filtered, paged; resources; related lists; linkage; includes. */
export function comparedUrls(
  activityIds: readonly string[],
  conceptIds: readonly string[],
  pick: <T>(a: readonly T[]) => T,
) {
  const activity = encodeURIComponent(pick(activityIds));
  const concept = encodeURIComponent(pick(conceptIds));
  return [
    '/trade-activities?page[size]=5',
    '/trade-activities?sort=financial-year&page[size]=4&page[number]=2',
    '/trade-activities?sort=-financial-year&page[size]=3&page[number]=1',
    '/trade-activities?sort=concerns.label&page[size]=5',
    '/trade-activities?sort=amount.value&page[size]=4',
    '/trade-activities?filter[financial-year][gte]=2010-01-01Z&page[size]=5',
    '/trade-activities?filter[concerns.label][contains]=live&sort=financial-year',
    '/concepts?sort=label&include=broader-concepts&page[size]=10',
    '/concepts?sort=-label&page[size]=3&page[number]=1',
    // Single resources without include: keyed by their own IRI (a `predicate` id's once found, a template id's).
    `/trade-activities/${activity}`,
    `/trade-activities/${activity}?fields[trade-activities]=financial-year`,
    `/concepts/${concept}`,
    `/concepts/${concept}/concept-scheme`,
    `/trade-activities/${activity}?include=concerns,origin.country`,
    `/trade-activities/${activity}/concerns?sort=label`,
    `/trade-activities/${activity}/relationships/concerns`,
    `/concepts/${concept}?include=narrower-concepts`,
    `/concepts/${concept}/narrower-concepts`,
    `/concepts/${concept}/relationships/broader-concepts`,
    `cursor:/trade-activities?sort=financial-year&page[size]=3`,
    `cursor:/concepts?sort=label&page[size]=4`,
  ];
}

/** Fetches `path` from both servers: status, ETag and body must be byte-identical. A `cursor:` path follows its next link once. */
export async function expectSame(
  fed: { readonly baseUrl: string },
  plain: { readonly baseUrl: string },
  path: string,
  context: string,
): Promise<void> {
  const cursor = path.startsWith('cursor:');
  const headers = { Accept: cursor ? CURSOR_PAGE : 'application/vnd.api+json' };
  let target = cursor ? path.slice('cursor:'.length) : path;
  for (let step = 0; step < (cursor ? 2 : 1) && target; step++) {
    const [a, b] = await Promise.all([raw(fed.baseUrl + target, headers), raw(plain.baseUrl + target, headers)]);
    expect(a, `${context}: GET ${target}`).toEqual(b);
    target = cursor && a.status === 200 ? (JSON.parse(a.body).links?.next ?? '') : '';
  }
}

async function raw(url: string, headers: Record<string, string>) {
  const response = await fetch(url, { headers });
  return { status: response.status, etag: response.headers.get('etag'), body: await response.text() };
}

/** Runs a SPARQL UPDATE on the endpoint; resolves the HTTP status. */
export async function sparqlUpdate(endpointUrl: string, update: string): Promise<number> {
  const response = await fetch(endpointUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/sparql-update' },
    body: update,
  });
  await response.arrayBuffer();
  return response.status;
}
