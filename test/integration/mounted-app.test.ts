/**
 * The app inside another Express app (`parent.use(createApp(…))`, after the parent's own routes):
 * a publisher who already runs an Express server serves the JSON:API from it. The app hands its
 * handlers Node's own request and response (`src/http/handler.ts`); mounted, it must still answer,
 * and leave Node's prototypes and the parent's helpers as they were. (It reads the whole URL, as
 * `/api/<dataset>` is its own prefix: it is mounted at the root.)
 */
import { IncomingMessage, OutgoingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { JSON_API } from '../../src/request/media-types.js';
import { openSampleStore, SAMPLE_MAPPING } from '../support/each-store.js';

describe('[embedded] the app mounted in another Express app', async () => {
  const [mapping, store] = await Promise.all([loadMapping(SAMPLE_MAPPING), openSampleStore('embedded')]);
  const parent = express();
  parent.get('/hello', (_req, res) => {
    res.status(200).json({ from: 'parent' }); // the parent's own routes keep Express's helpers
  });
  parent.use(createApp({ datasets: [{ name: 'sample', mapping, store, linkBase: '' }] }));
  const server = parent.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  afterAll(async () => {
    server.close();
    await store.close();
  });

  it('answers its URLs, errors too', async () => {
    const found = await fetch(`${base}/concepts/0101`, { headers: { Accept: JSON_API } });
    expect(found.status).toBe(200);
    expect(found.headers.get('content-type')).toBe(JSON_API);
    expect(found.headers.get('vary')).toContain('Accept');
    const document = (await found.json()) as { data: { id: string; links: { self: string } } };
    expect(document.data.id).toBe('0101');
    expect(document.data.links.self).toBe('/concepts/0101');

    const missing = await fetch(`${base}/no-such-type`, { headers: { Accept: JSON_API } });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { errors: { status: string }[] }).errors[0]?.status).toBe('404');
  });

  it('leaves Node’s prototypes and the parent’s helpers as they were', async () => {
    expect(Object.getPrototypeOf(IncomingMessage.prototype)).toBe(Readable.prototype);
    expect(Object.getPrototypeOf(ServerResponse.prototype)).toBe(OutgoingMessage.prototype);
    const hello = await fetch(`${base}/hello`);
    expect(hello.status).toBe(200);
    expect(await hello.json()).toEqual({ from: 'parent' });
  });
});
