/**
 * The HTTP layer's bounds and safe defaults, on both stores: a request's deadline (504) and its
 * client going away stop the store's work; graceful shutdown; what never reaches Express
 * (CONNECT, unparsable requests) still gets a JSON:API answer; 414; security headers; /metrics
 * behind a token or off; CORS request headers; /health without store addresses; log levels.
 *
 * A slow request is the real store behind a delay that honours the request's signal.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { type Logger, pino } from 'pino';
import { afterEach, expect, it } from 'vitest';
import { type AppOptions, createApp } from '../../src/app.js';
import type { DatasetOptions } from '../../src/dataset.js';
import { ClientGone } from '../../src/http/request-signal.js';
import { createApiServer, stopGracefully } from '../../src/http/server.js';
import { DEFAULT_REQUEST_LIMITS } from '../../src/plan/plan.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient } from '../support/api-client.js';
import { describeEachStore } from '../support/each-store.js';

/** The store, each query held back `ms` first; the reason of every abort it saw is noted. */
function slowed(store: Store, ms: number, aborts: unknown[]): Store {
  return {
    description: store.description,
    oneGraph: store.oneGraph,
    select: async (query, options) => {
      try {
        await delay(ms, undefined, options?.signal ? { signal: options.signal } : {});
      } catch (error) {
        aborts.push(options?.signal?.reason);
        throw options?.signal?.reason ?? error;
      }
      return store.select(query, options);
    },
    ping: (options) => store.ping(options),
    close: () => store.close(),
  };
}

/** Log lines the app writes, parsed. */
function captureLog(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

const open: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

describeEachStore('bounded requests and safe defaults', (h) => {
  const appWith = async (store: Store, options: Partial<DatasetOptions> = {}, app: Partial<AppOptions> = {}) => {
    const api = await ApiClient.listen(
      createApp({ datasets: [{ name: 'sample', mapping: h().mapping, store, linkBase: '', options }], ...app }),
    );
    open.push(api);
    return api;
  };

  it('a request past its deadline is a 504 at the deadline, and its store work is stopped', async () => {
    const aborts: unknown[] = [];
    const api = await appWith(slowed(h().store, 5_000, aborts), { timeoutMs: 300 });
    const start = Date.now();
    const response = await api.get('/concepts');
    expect(response.status).toBe(504);
    expect(response.body.errors[0]).toMatchObject({ status: '504', title: 'Request timeout' });
    expect(response.body.errors[0].detail).toContain('300 ms');
    expect(Date.now() - start, 'answered at the deadline, not when the store would have').toBeLessThan(4_000);
    expect(aborts.length).toBeGreaterThan(0);
    expect((aborts[0] as Error).name).toBe('TimeoutError');
  });

  it('a client that goes away stops its store work; the server logs it at info and sends nothing', async () => {
    const aborts: unknown[] = [];
    const { logger, lines } = captureLog();
    const api = await appWith(slowed(h().store, 5_000, aborts), {}, { logger });
    const controller = new AbortController();
    const request = fetch(`${api.baseUrl}/concepts`, { signal: controller.signal }).catch((e: unknown) => e);
    await delay(200);
    controller.abort();
    expect(((await request) as Error).name).toBe('AbortError');
    for (let i = 0; i < 40 && aborts.length === 0; i++) await delay(50);
    expect(aborts[0]).toBeInstanceOf(ClientGone);
    for (let i = 0; i < 40 && !lines.some((l) => l.msg === 'client went away; its store work was stopped'); i++)
      await delay(50);
    const line = lines.find((l) => l.msg === 'client went away; its store work was stopped');
    expect(line).toMatchObject({ level: 30, route: '/:type' });
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
  });

  it('graceful shutdown: a quick request finishes; a slow one is stopped at the deadline with a 503', async () => {
    const stopping = new AbortController();
    const aborts: unknown[] = [];
    const app = createApp({
      datasets: [{ name: 'sample', mapping: h().mapping, store: slowed(h().store, 1_000, aborts), linkBase: '' }],
      shutdown: stopping.signal,
    });
    const server = createApiServer(app, pino({ level: 'silent' }));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const slow = fetch(`${base}/concepts`).then(async (r) => ({
      status: r.status,
      headers: r.headers,
      body: (await r.json()) as { errors: { title: string }[] },
    }));
    await delay(100);
    const outcome = await stopGracefully(server, 200, () => stopping.abort());
    const answer = await slow;
    expect(outcome).toBe('aborted');
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(answer.body.errors[0]?.title).toBe('Server stopping');

    const calm = createApiServer(
      createApp({ datasets: [{ name: 'sample', mapping: h().mapping, store: h().store, linkBase: '' }] }),
      pino({ level: 'silent' }),
    );
    calm.listen(0, '127.0.0.1');
    await once(calm, 'listening');
    const quick = fetch(`http://127.0.0.1:${(calm.address() as AddressInfo).port}/concepts`);
    await delay(20);
    const [drained, response] = await Promise.all([stopGracefully(calm, 5_000, () => undefined), quick]);
    expect(response.status).toBe(200);
    expect(drained).toBe('drained');
  });

  it('CONNECT, oversized headers and unparsable requests get a JSON:API error document, never a silent close', async () => {
    const server = createApiServer(
      createApp({ datasets: [{ name: 'sample', mapping: h().mapping, store: h().store, linkBase: '' }] }),
      pino({ level: 'silent' }),
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    open.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const cases: [string, number, string][] = [
      ['CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n', 405, 'Method Not Allowed'],
      [
        `GET /concepts HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        431,
        'Request Header Fields Too Large',
      ],
      ['BREW /coffee HTCPCP/1.0\r\n\r\n', 400, 'Bad Request'],
    ];
    for (const [request, status, title] of cases) {
      const raw = await rawExchange(server, request);
      expect(raw.split('\r\n')[0], request.slice(0, 20)).toBe(`HTTP/1.1 ${status} ${title}`);
      expect(raw).toMatch(/\r\nContent-Type: application\/vnd\.api\+json\r\n/);
      const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
      expect(body.errors[0]).toMatchObject({ status: String(status), title });
      if (status === 405) expect(raw).toContain('\r\nAllow: GET, HEAD, OPTIONS\r\n');
    }
    // A URL typed with raw non-ASCII or a space: the 400 says to percent-encode it; other garbage does not.
    for (const target of ['/concepts?filter=Élodie', '/concepts?filter=two words']) {
      const raw = await rawExchange(server, Buffer.from(`GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`, 'utf8'));
      expect(raw.split('\r\n')[0], target).toBe('HTTP/1.1 400 Bad Request');
      const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
      expect(body.errors[0].detail, target).toMatch(/percent-encode/i);
      expect(body.errors[0].detail).toContain('%C3%89lodie');
    }
    const garbage = await rawExchange(server, 'BREW /coffee HTCPCP/1.0\r\n\r\n');
    expect(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4)).errors[0].detail).toBe(
      'The request is not valid HTTP/1.1.',
    );
    // A HEAD gets the same head and no body.
    const head = await rawExchange(
      server,
      `HEAD /concepts HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(head.endsWith('\r\n\r\n'), 'nothing after the head').toBe(true);
  });

  it('paths a URL parser misreads (//, //host/type) are plain 404s, not 500s', async () => {
    const api = await appWith(h().store);
    for (const path of ['//', '//x/concepts', '//concepts/0101']) {
      const response = await api.get(path);
      expect(response.status, path).toBe(404);
      expect(response.body.errors[0].status).toBe('404');
    }
  });

  it('a document may include as many resources as limits.included, and a request that reaches more is a 400', async () => {
    const path = '/trade-activities?include=concerns.broader-concepts,origin&page[size]=100';
    const full = await (await appWith(h().store)).get(path);
    expect(full.status).toBe(200);
    const count = full.body.included.length;
    expect(count).toBeGreaterThan(1);
    const limits = (included: number) => ({ limits: { ...DEFAULT_REQUEST_LIMITS, included } });
    expect((await (await appWith(h().store, limits(count))).get(path)).body.included).toHaveLength(count);
    const refused = await (await appWith(h().store, limits(count - 1))).get(path);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].source).toEqual({ parameter: 'include' });
    expect(refused.body.errors[0].detail).toContain(`more than ${count - 1} resources`);
  });

  it('a URL past the limit is a 414 before anything parses it', async () => {
    const api = await appWith(h().store, {}, { maxUrlLength: 300 });
    const long = `/concepts?filter[label]=${'x'.repeat(300)}`;
    expect((await api.get(long)).status).toBe(414);
    expect((await api.get('/concepts?sort=label')).status).toBe(200);
  });

  it('every response carries the security headers: 200, 404, 405, /health', async () => {
    const api = await appWith(h().store);
    for (const [method, path] of [
      ['GET', '/concepts/0101'],
      ['GET', '/nope'],
      ['POST', '/concepts'],
      ['GET', '/health'],
    ] as const) {
      const { headers } = await api.request(method, path, { Accept: 'application/vnd.api+json' });
      expect(headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(headers.get('content-security-policy'), path).toBe("default-src 'none';frame-ancestors 'none'");
      expect(headers.get('x-powered-by'), path).toBeNull();
    }
  });

  it('/metrics behind a token answers 401 without it; switched off it is not served', async () => {
    const token = 'a-long-enough-metrics-token';
    const guarded = await appWith(h().store, {}, { metrics: { token } });
    const refused = await guarded.get('/metrics');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expect(await guarded.metrics({ Authorization: `Bearer ${token}` })).toMatch(/^http_requests_total/m);
    const off = await appWith(h().store, {}, { metrics: { enabled: false } });
    expect((await off.get('/metrics')).status).toBe(404);
  });

  it('CORS: a preflight may ask for Authorization and X-Requested-With by default; the list is configurable', async () => {
    const preflight = {
      Origin: 'https://app.example.org',
      'Access-Control-Request-Method': 'GET',
      'Access-Control-Request-Headers': 'authorization,x-requested-with',
    };
    const allowed = (headers: Headers) => (headers.get('access-control-allow-headers') ?? '').toLowerCase().split(',');
    const byDefault = await appWith(h().store);
    expect(allowed((await byDefault.request('OPTIONS', '/concepts', preflight)).headers)).toEqual(
      expect.arrayContaining(['authorization', 'x-requested-with', 'accept', 'if-none-match']),
    );
    const configured = await appWith(h().store, {}, { cors: { origins: '*', allowHeaders: ['Accept', 'X-Api-Key'] } });
    expect(allowed((await configured.request('OPTIONS', '/concepts', preflight)).headers)).toEqual([
      'accept',
      'x-api-key',
    ]);
  });

  it('/health names each dataset and its status, not its store, unless details are on', async () => {
    const plain = await appWith(h().store);
    const health = await plain.get('/health');
    expect(health.status).toBe(200);
    expect(health.body.meta).toEqual({ status: 'ok', datasets: [{ name: 'sample', status: 'ok' }] });
    const detailed = await appWith(h().store, {}, { health: { details: true } });
    expect((await detailed.get('/health')).body.meta.datasets[0].store).toBe(h().store.description);
  });

  it('writes an access log line per request when sampled at 1, and none when off (the default)', async () => {
    const on = captureLog();
    const sampled = await appWith(h().store, {}, { logger: on.logger, accessLogSample: 1 });
    await sampled.get('/concepts/0101');
    await sampled.get('/nope');
    const access = on.lines.filter((l) => l.msg === 'request completed');
    expect(access.map((l) => (l.res as { statusCode: number }).statusCode)).toEqual([200, 404]);
    const off = captureLog();
    await (await appWith(h().store, {}, { logger: off.logger })).get('/concepts/0101');
    expect(off.lines.filter((l) => l.msg === 'request completed')).toEqual([]);
  });

  it('logs a client error once at info without a stack', async () => {
    const { logger, lines } = captureLog();
    const api = await appWith(h().store, {}, { logger });
    expect((await api.get('/concepts?sort=nope')).status).toBe(400);
    const logged = lines.filter((l) => l.msg === 'request rejected');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 30, status: 400, route: '/:type' });
    expect(JSON.stringify(logged[0])).not.toMatch(/\n\s+at /);
  });
});

/** Sends raw bytes to the server and resolves everything it answers until it closes the socket. */
async function rawExchange(server: Server, request: string | Buffer): Promise<string> {
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await once(socket, 'connect');
  socket.write(request);
  await Promise.race([once(socket, 'close'), delay(5_000)]);
  socket.destroy();
  return Buffer.concat(chunks).toString('utf8');
}
