import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/**
 * How long a connection that was busy just before the stop began may still bring one more
 * request. A client that sends every few milliseconds has its next request read and answered
 * (with `Connection: close`) instead of racing the close: an idle kept-alive connection closed at
 * the instant its client writes a request is reset, and the client only learns it after writing.
 * A connection idle for longer than this is closed at once.
 */
export const LAST_CALL_MS = 150;

/** What a server being stopped needs to know of its requests. */
interface DrainState {
  draining: boolean;
  /** Responses begun and not yet ended or aborted. */
  readonly open: Set<ServerResponse>;
  /** The open connections, each with when it last began or ended a response. */
  readonly sockets: Map<Socket, number>;
}

const states = new WeakMap<Server, DrainState>();

/**
 * Lets {@link drainConnections} close each connection of `server` as its response ends: it keeps
 * the responses in flight, and once draining marks every response `Connection: close`. Before the
 * app's own listener, so that the header is set before anything is written.
 */
export function trackResponses(server: Server): void {
  const state: DrainState = { draining: false, open: new Set(), sockets: new Map() };
  states.set(server, state);
  server.on('connection', (socket: Socket) => {
    state.sockets.set(socket, performance.now());
    socket.once('close', () => state.sockets.delete(socket));
  });
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (state.draining) return lastResponse(server, res);
    state.open.add(res);
    const active = () => state.sockets.has(res.socket!) && state.sockets.set(res.socket!, performance.now());
    active();
    res.once('close', () => {
      state.open.delete(res);
      active();
    });
  });
}

/**
 * Starts the drain: the listener stops taking connections at once (a new one is refused, which
 * any client may retry elsewhere); each response in flight, and each request still read on a
 * kept-alive connection, is answered with `Connection: close` and its connection then closes; a
 * connection idle at the start is closed after {@link LAST_CALL_MS} (HTTP/1.1 lets a server
 * close an idle persistent connection at any time: a client retries a request it had not had an
 * answer to). `closed` resolves once no connection is left.
 */
export function drainConnections(server: Server, lastCallMs = LAST_CALL_MS): { closed: Promise<void> } {
  const state = states.get(server);
  // net's own close, not http's: http's also closes idle connections at once (Node 19 and later).
  const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
  if (state) {
    state.draining = true;
    for (const res of state.open) lastResponse(server, res);
    const busy = new Set([...state.open].map((res) => res.socket));
    const now = performance.now();
    for (const [socket, active] of state.sockets) if (!busy.has(socket) && now - active >= lastCallMs) socket.destroy();
  }
  const lastCall = setTimeout(() => server.close(), lastCallMs);
  void closed.then(() => clearTimeout(lastCall));
  return { closed };
}

/** This response is the connection's last: said in its head if not sent yet, else closed once idle. */
function lastResponse(server: Server, res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
  // Node ends a `Connection: close` response's socket itself; one whose head was already sent
  // kept-alive goes idle instead, and is closed then.
  else res.once('finish', () => setImmediate(() => server.closeIdleConnections()));
}
