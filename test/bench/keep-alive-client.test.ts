import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alternate, closedLoop, keepAliveClient, SendFailed } from '../../bench/keep-alive-client.js';
import { members } from '../../bench/keep-alive-shape.js';

// A real local HTTP server that records what it received: the client's requests, sockets and headers.
let server: Server;
let base: string;
const seen: { url: string; accept: string | undefined; socket: number }[] = [];
const sockets = new WeakMap<object, number>();
let nextSocket = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (!sockets.has(req.socket)) sockets.set(req.socket, nextSocket++);
    seen.push({ url: req.url!, accept: req.headers.accept, socket: sockets.get(req.socket)! });
    if (req.url === '/hang-up') return req.socket.destroy();
    res.statusCode = req.url === '/missing' ? 404 : 200;
    res.end(
      JSON.stringify({ data: req.url === '/list' ? [{ id: '1' }, { id: '2' }] : null, pad: 'x'.repeat(100_000) }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the keep-alive client', () => {
  it('sends the Accept given, reads each body whole and keeps its socket for the next request', async () => {
    const client = keepAliveClient();
    seen.length = 0;
    const first = await client.get(`${base}/list`, 'application/vnd.api+json');
    const second = await client.get(`${base}/list`, 'application/vnd.api+json');
    client.close();
    expect(first.status).toBe(200);
    expect(first.body.length).toBeGreaterThan(100_000);
    expect(members(second.body)).toBe('2');
    expect(seen.map((s) => s.accept)).toEqual(['application/vnd.api+json', 'application/vnd.api+json']);
    expect(seen[1]!.socket).toBe(seen[0]!.socket);
  });

  it('alternates which server goes first, round by round, and names the one that failed', async () => {
    const client = keepAliveClient();
    seen.length = 0;
    const to = (name: string) => (i: number) => client.get(`${base}/${name}/${i}`, 'application/vnd.api+json');
    const [a, b] = await alternate([to('a'), to('b')], 4);
    expect(a!.samples).toBe(4);
    expect(b!.samples).toBe(4);
    expect(seen.map((s) => s.url)).toEqual(['/a/0', '/b/0', '/b/1', '/a/1', '/a/2', '/b/2', '/b/3', '/a/3']);
    const failed = await alternate([to('a'), () => client.get(`${base}/missing`, 'application/vnd.api+json')], 2).catch(
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(SendFailed);
    expect((failed as SendFailed).index).toBe(1);
    seen.length = 0;
    const hungUp = await alternate([() => client.get(`${base}/hang-up`, 'application/vnd.api+json')], 1).catch(
      (error: unknown) => error,
    );
    expect((hungUp as SendFailed).index).toBe(0);
    // Sent on a kept-alive socket, it is sent once more (on a fresh one), and no more than that.
    expect(seen.map((s) => s.url)).toEqual(['/hang-up', '/hang-up']);
    client.close();
  });

  it('runs a closed loop of at most maxSockets sockets for its time, counting 200s and the rest', async () => {
    const client = keepAliveClient();
    seen.length = 0;
    let i = 0;
    const loop = await closedLoop(
      () => client.get(`${base}/${i++ % 5 === 0 ? 'missing' : 'list'}`, 'application/vnd.api+json'),
      { connections: 10, seconds: 0.3 },
    );
    client.close();
    expect(loop.seconds).toBeGreaterThanOrEqual(0.3);
    expect(loop.completed + loop.failed).toBe(seen.length);
    expect(loop.failed).toBe(seen.filter((s) => s.url === '/missing').length);
    expect(loop.requestsPerSecond).toBeCloseTo(loop.completed / loop.seconds, 6);
    expect(new Set(seen.map((s) => s.socket)).size).toBeLessThanOrEqual(10);
  });
});
