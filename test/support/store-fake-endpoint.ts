import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';

/** What the fake endpoint does with its n-th request (1-based): answer it, or return `'drop'` to drop the socket unanswered. */
export type FakeBehaviour = (n: number, request: IncomingMessage, response: ServerResponse) => unknown;

/** A local HTTP server standing in for a SPARQL endpoint, for failures a real store cannot be made to show on cue. */
export interface FakeEndpoint {
  endpointUrl: string;
  /** Requests received so far. */
  readonly requests: number;
  close(): Promise<void>;
}

/** A one-row SPARQL JSON result, as a store would send it. */
export const ONE_ROW = JSON.stringify({
  head: { vars: ['x'] },
  results: { bindings: [{ x: { type: 'literal', value: 'ok' } }] },
});

/** Starts a keep-alive HTTP server on a free loopback port. */
export async function startFakeEndpoint(behaviour: FakeBehaviour): Promise<FakeEndpoint> {
  let requests = 0;
  const server = createServer((request, response) => {
    requests += 1;
    // Like a server that closed an idle keep-alive socket just as the client reused it.
    if (behaviour(requests, request, response) === 'drop') request.socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    endpointUrl: `http://127.0.0.1:${port}/sparql`,
    get requests() {
      return requests;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
