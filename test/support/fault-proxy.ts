import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * What the proxy does with a request:
 * - `none`: forwards it to the real endpoint and relays the answer
 * - `hang`: reads the request and never answers (the socket stays open)
 * - `slow-body`: forwards it, sends the real status and headers at once, then the body a byte at a time, slowly
 * - `reset`: resets the connection (TCP RST) before any answer
 * - `reset-mid-body`: forwards it, sends the headers and half the body, then resets the connection
 * - `http-500`: answers 500 with a store-like error text
 * - `garbage`: answers 200 with the SPARQL JSON media type and a body that is not JSON
 * - `truncated-json`: forwards it and relays the first half of the real body as a complete response
 * - `missing-variables`: answers a well-formed SPARQL JSON result without the variables the query projects
 * - `literal-for-iri`: forwards it and relays the real result with every IRI turned into a literal
 */
export type Fault =
  | 'none'
  | 'hang'
  | 'slow-body'
  | 'reset'
  | 'reset-mid-body'
  | 'http-500'
  | 'garbage'
  | 'truncated-json'
  | 'missing-variables'
  | 'literal-for-iri';

/** One request the proxy received, as it saw it. */
export interface ProxiedRequest {
  /** 1-based, in arrival order. */
  readonly n: number;
  /** The SPARQL query text (from the URL's `query`, or the form-encoded body's). */
  readonly query: string;
  readonly fault: Fault;
  /** `performance.now()` at arrival. */
  readonly arrivedAt: number;
  /** When the client closed the connection before the proxy had answered in full (the server cancelled it). */
  abortedAt?: number;
  /** When the proxy finished answering. */
  answeredAt?: number;
}

/** How the proxy picks a fault: one for every request, or per request (by its query, say). */
export type FaultRule = Fault | ((request: { n: number; query: string }) => Fault);

/** Milliseconds between two bytes of a `slow-body` answer. */
const TRICKLE_MS = 200;

/**
 * A small HTTP proxy in front of a real SPARQL endpoint that can be switched, for every request or
 * per request, to fail in the ways a store or the network fails: hang, trickle, reset, answer an
 * error, garbage, truncated JSON, or well-formed results of the wrong shape. It logs every request
 * with when it arrived and when the client gave up on it, so a test can tell whether the server
 * cancelled its store work.
 *
 * @example const proxy = await FaultProxy.start(endpointUrl); proxy.set('hang'); …; proxy.set('none')
 */
export class FaultProxy {
  readonly log: ProxiedRequest[] = [];
  private rule: FaultRule = 'none';
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    private readonly target: URL,
    /** The proxy's endpoint URL: the target's path on the proxy's port. */
    readonly endpointUrl: string,
  ) {}

  /** Starts a proxy on a free loopback port for the endpoint at `targetUrl`. */
  static async start(targetUrl: string): Promise<FaultProxy> {
    const target = new URL(targetUrl);
    let proxy: FaultProxy | undefined;
    const server = createServer((req, res) => void proxy!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    proxy = new FaultProxy(server, target, `http://127.0.0.1:${port}${target.pathname}`);
    server.on('connection', (socket) => {
      proxy!.sockets.add(socket);
      socket.on('close', () => proxy!.sockets.delete(socket));
    });
    return proxy;
  }

  /** Switches what the proxy does with the requests that arrive from now on. */
  set(rule: FaultRule): void {
    this.rule = rule;
  }

  /** The requests that arrived since `n` (exclusive). */
  since(n: number): ProxiedRequest[] {
    return this.log.filter((request) => request.n > n);
  }

  get received(): number {
    return this.log.length;
  }

  /** Drops every connection (hung ones too) and stops listening. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    for (const socket of this.sockets) socket.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', this.target);
    const form = new URLSearchParams(
      String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded') ? body.toString() : '',
    );
    const query = url.searchParams.get('query') ?? form.get('query') ?? '';
    const n = this.log.length + 1;
    const fault = typeof this.rule === 'function' ? this.rule({ n, query }) : this.rule;
    const entry: ProxiedRequest = { n, query, fault, arrivedAt: performance.now() };
    this.log.push(entry);
    res.on('close', () => {
      if (res.writableFinished) entry.answeredAt = performance.now();
      else entry.abortedAt ??= performance.now();
    });
    const socket = req.socket;
    const reset = () => (socket.resetAndDestroy ? socket.resetAndDestroy() : socket.destroy());

    switch (fault) {
      case 'hang':
        return; // the socket stays open until the client or close() ends it
      case 'reset':
        reset();
        return;
      case 'http-500':
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end('Virtuoso 42000 Error SR483: Stored procedure failed (fault injected by the test proxy)\n');
        return;
      case 'garbage':
        res.writeHead(200, { 'Content-Type': 'application/sparql-results+json' });
        res.end('<html><body><h1>502 Bad Gateway</h1>\u0000\u00ff not json</body></html>');
        return;
      case 'missing-variables':
        res.writeHead(200, { 'Content-Type': 'application/sparql-results+json' });
        res.end(
          JSON.stringify({
            head: { vars: ['unexpected'] },
            results: { bindings: [{ unexpected: { type: 'literal', value: 'what the server did not ask for' } }] },
          }),
        );
        return;
    }

    // The rest start from the real answer.
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    let upstream: Response;
    let text: string;
    try {
      upstream = await fetch(url.href.replace(url.origin, this.target.origin), {
        method: req.method ?? 'GET',
        headers: {
          ...(req.headers.accept && { Accept: req.headers.accept }),
          ...(req.headers['content-type'] && { 'Content-Type': req.headers['content-type'] }),
          ...(req.headers.authorization && { Authorization: req.headers.authorization }),
        },
        ...(body.length > 0 && { body }),
        signal: abort.signal,
      });
      text = await upstream.text();
    } catch {
      reset(); // the real store failed (or the client left): the client sees a reset
      return;
    }
    const headers: Record<string, string> = {
      'Content-Type': upstream.headers.get('content-type') ?? 'application/sparql-results+json',
    };
    const maxRows = upstream.headers.get('x-sparql-maxrows');
    if (maxRows !== null) headers['X-SPARQL-MaxRows'] = maxRows;

    switch (fault) {
      case 'none':
        res.writeHead(upstream.status, headers);
        res.end(text);
        return;
      case 'truncated-json':
        res.writeHead(upstream.status, headers);
        res.end(text.slice(0, Math.floor(text.length / 2)));
        return;
      case 'reset-mid-body':
        res.writeHead(upstream.status, headers);
        res.write(text.slice(0, Math.floor(text.length / 2)), () => reset());
        return;
      case 'literal-for-iri': {
        let json: { results?: { bindings?: Record<string, { type: string; value: string }>[] } };
        try {
          json = JSON.parse(text);
        } catch {
          res.writeHead(upstream.status, headers);
          res.end(text);
          return;
        }
        for (const binding of json.results?.bindings ?? [])
          for (const [name, term] of Object.entries(binding))
            if (term.type === 'uri') binding[name] = { type: 'literal', value: term.value };
        res.writeHead(upstream.status, headers);
        res.end(JSON.stringify(json));
        return;
      }
      case 'slow-body': {
        res.writeHead(upstream.status, headers);
        res.flushHeaders();
        const bytes = Buffer.from(text);
        let at = 0;
        const timer = setInterval(() => {
          if (res.destroyed || at >= bytes.length) {
            clearInterval(timer);
            this.timers.delete(timer);
            if (!res.destroyed) res.end();
            return;
          }
          res.write(bytes.subarray(at, at + 1));
          at += 1;
        }, TRICKLE_MS);
        this.timers.add(timer);
        return;
      }
    }
  }
}
