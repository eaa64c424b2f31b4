/**
 * SIGTERM to a real `serve` process with kept-alive clients: the order of what each client sees
 * (answers, `Connection: close`, closed connections, refusals) and the process's exit, against the
 * signal. Bounds are generous (a loaded 2-core machine) but each fails the old behaviour, which
 * answered on kept-alive connections for the whole 10 s grace, then reset them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Agent, get } from 'node:http';
import type { Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { listeningPort } from '../support/cli-io.js';

const ROOT = new URL('../../', import.meta.url).pathname;

interface Exchange {
  client: number;
  socket: number;
  sentAt: number;
  answeredAt?: number;
  status?: number;
  connection?: string;
  error?: string;
}

/**
 * `serve` on the sample in a child process; resolves once it listens. Times are `Date.now()`
 * here and in its log (pino's `time`), one clock for both processes.
 */
async function startServer(): Promise<{
  child: ChildProcess;
  port: number;
  exitedAt: Promise<number>;
  lines: string[];
}> {
  const env = { ...process.env };
  for (const name of ['PORT', 'HOST', 'LOG_LEVEL', 'NODE_OPTIONS', 'SPARQL_ENDPOINT']) delete env[name];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/bin.ts', 'serve', '--mapping', 'mappings/sample.yaml', '--data', 'data/sample.ttl'],
    { cwd: ROOT, env: { ...env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
  const exited = once(child, 'exit').then(() => Date.now());
  const port = await listeningPort(
    () => lines,
    exited.then(() => child.exitCode ?? -1),
    () => stderr,
    // The start is not what is measured: on a loaded machine it may take long.
    90_000,
  );
  return { child, port, exitedAt: exited, lines };
}

/** A client on one kept-alive connection at a time, sending one GET every `everyMs` until `stop()`. */
function client(id: number, port: number, log: Exchange[], sockets: Map<Socket, number>) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let running = true;
  const one = () =>
    new Promise<void>((resolve) => {
      const exchange: Exchange = { client: id, socket: -1, sentAt: Date.now() };
      log.push(exchange);
      const request = get({ port, host: '127.0.0.1', path: '/trade-activities?page[size]=20', agent }, (res) => {
        exchange.status = res.statusCode;
        exchange.connection = res.headers.connection;
        res.resume().on('end', () => {
          exchange.answeredAt = Date.now();
          resolve();
        });
      });
      request.on('socket', (socket: Socket) => {
        if (!sockets.has(socket)) sockets.set(socket, sockets.size);
        exchange.socket = sockets.get(socket)!;
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        exchange.error = error.code ?? error.message;
        resolve();
      });
    });
  const done = (async () => {
    while (running) {
      await one();
      await delay(20);
    }
  })();
  return {
    agent,
    stop: async () => {
      running = false;
      await done;
      agent.destroy();
    },
  };
}

describe('shutdown: SIGTERM drains kept-alive connections', () => {
  it('4 clients every 20 ms: none of the requests sent before the signal fails, each connection closes after at most one more response, the exit follows the last answer', async () => {
    const { child, port, exitedAt, lines } = await startServer();
    const log: Exchange[] = [];
    const sockets = new Map<Socket, number>();
    const closedAt = new Map<number, number>();
    const clients = Array.from({ length: 4 }, (_, i) => client(i, port, log, sockets));
    await delay(1_500);
    for (const [socket, id] of sockets) socket.once('close', () => closedAt.set(id, Date.now()));
    const signalAt = Date.now();
    child.kill('SIGTERM');
    const exited = await exitedAt;
    await Promise.all(clients.map((c) => c.stop()));
    // When the server began to stop, by its own log: the signal takes a moment to arrive.
    const stopping = lines
      .map((l) => JSON.parse(l) as { msg?: string; time: number })
      .find((l) => l.msg?.startsWith('stopping'));
    expect(stopping, 'the stopping log line').toBeDefined();
    const stopAt = stopping!.time;
    expect(stopAt).toBeGreaterThanOrEqual(signalAt);

    const before = log.filter((e) => e.sentAt < signalAt);
    expect(before.length).toBeGreaterThan(8);
    for (const e of before) expect({ status: e.status, error: e.error }).toEqual({ status: 200, error: undefined });
    // Sent after the signal: answered on the connection's last response, or refused (no connection).
    for (const e of log.filter((e) => e.sentAt >= signalAt))
      expect(String(e.status ?? e.error)).toMatch(/^(200|ECONNREFUSED|ECONNRESET)$/);
    expect(log.some((e) => e.status === 503)).toBe(false);
    // Per connection open at the signal: at most one request sent once the server was stopping,
    // answered with `Connection: close`; then the connection closed.
    for (const id of new Set(before.map((e) => e.socket))) {
      const later = log.filter((e) => e.socket === id && e.sentAt > stopAt && e.status !== undefined);
      expect(later.length, `connection ${id}: answers to requests sent after the stop began`).toBeLessThanOrEqual(1);
      for (const e of later) expect(e.connection, `connection ${id}`).toBe('close');
      expect(closedAt.get(id), `connection ${id} closed`).toBeDefined();
    }
    const lastAnswer = Math.max(...log.map((e) => e.answeredAt ?? 0));
    expect(exited - lastAnswer, 'exit after the last answer (ms)').toBeLessThan(1_000);
    expect(exited - signalAt, 'exit after the signal (ms)').toBeLessThan(5_000);
    expect(child.exitCode).toBe(0);
  }, 180_000);

  it('idle kept-alive clients: the process exits within 0.5 s of the signal', async () => {
    const { child, port, exitedAt } = await startServer();
    const log: Exchange[] = [];
    const clients = Array.from({ length: 4 }, (_, i) => client(i, port, log, new Map()));
    await delay(300);
    await Promise.all(clients.map((c) => c.stop().catch(() => undefined)));
    // The clients stop without closing: their connections stay open, idle, kept alive.
    const idle = Array.from({ length: 4 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    await Promise.all(
      idle.map(
        (agent) =>
          new Promise<void>((resolve, reject) =>
            get({ port, host: '127.0.0.1', path: '/health', agent }, (res) => res.resume().on('end', resolve)).on(
              'error',
              reject,
            ),
          ),
      ),
    );
    await delay(200);
    expect(idle.map((agent) => Object.values(agent.freeSockets).flat().length)).toEqual([1, 1, 1, 1]);
    const signalAt = Date.now();
    child.kill('SIGTERM');
    const exited = await exitedAt;
    for (const agent of idle) agent.destroy();
    expect(exited - signalAt, 'exit after the signal (ms)').toBeLessThan(500);
    expect(child.exitCode).toBe(0);
  }, 180_000);
});
