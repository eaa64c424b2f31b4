import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { JSON_API } from '../request/media-types.js';
import { errorDocument } from '../shape/documents.js';
import { ALLOW } from './cors.js';
import { drainConnections, trackResponses } from './drain.js';

/**
 * The HTTP server around an app, for what never reaches Express: a CONNECT request (Node hands it
 * to its own event) gets a 405, and a request Node cannot parse (a header past its 16 KB limit: 431;
 * anything else malformed: 400) gets a JSON:API error document before the socket closes, so no
 * socket is ever left without an answer.
 *
 * @example const server = createApiServer(createApp({ datasets }), logger); server.listen(3000)
 */
export function createApiServer(app: Express, logger: Logger): Server {
  const server = createServer(app);
  trackResponses(server);
  server.on('connect', (_req, socket: Duplex) => {
    answerRaw(socket, {
      status: 405,
      title: 'Method Not Allowed',
      detail: `This API is read-only; CONNECT is not allowed. Allowed: ${ALLOW}.`,
      headers: { Allow: ALLOW },
    });
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) return;
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const rawPacket = (error as { rawPacket?: Buffer }).rawPacket;
    // A HEAD gets the head alone, as everywhere: what Node read of the request tells the method.
    const head = rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    logger.info({ code: error.code }, 'unparsable request');
    if (tooLarge)
      answerRaw(socket, {
        status: 431,
        title: 'Request Header Fields Too Large',
        detail: 'The request headers exceed 16 KB.',
        headOnly: head,
      });
    else
      answerRaw(socket, {
        status: 400,
        title: 'Bad Request',
        detail: unparsableDetail(error, rawPacket),
        headOnly: head,
      });
  });
  return server;
}

/**
 * Why a request could not be parsed, in words: most often a URL typed with characters a URL
 * carries only percent-encoded (`curl '…?filter=Élodie'`, a space), which gets the hint to
 * encode them; anything else is just not HTTP/1.1.
 */
function unparsableDetail(error: NodeJS.ErrnoException, rawPacket: Buffer | undefined): string {
  const end = rawPacket?.indexOf('\r\n') ?? -1;
  const requestLine = rawPacket?.subarray(0, end < 0 ? undefined : end).toString('latin1') ?? '';
  const target = requestLine.split(' ').slice(1, -1).join(' ');
  if (error.code !== 'HPE_INVALID_URL' && !/[^\x21-\x7e]/.test(target)) return 'The request is not valid HTTP/1.1.';
  return "The request is not valid HTTP/1.1: its URL holds characters that a URL carries only percent-encoded (non-ASCII letters, spaces, quotes). Percent-encode them as UTF-8 (Élodie → %C3%89lodie): curl -G --data-urlencode 'filter=Élodie' URL, or encodeURIComponent in JavaScript.";
}

interface RawAnswer {
  status: number;
  title: string;
  detail: string;
  headers?: Record<string, string>;
  /** The answer to a HEAD: the head alone. */
  headOnly?: boolean;
}

/** Writes a whole HTTP/1.1 response with a JSON:API error document to a raw socket, and closes it. */
function answerRaw(socket: Duplex, { status, title, detail, headers = {}, headOnly = false }: RawAnswer): void {
  const body = JSON.stringify(errorDocument([{ status: String(status), title, detail }]));
  const head = Object.entries({
    'Content-Type': JSON_API,
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    Connection: 'close',
    ...headers,
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${title}\r\n${head}\r\n${headOnly ? '' : body}`);
}

/**
 * Stops a server gracefully: no new connections; every response from now on carries
 * `Connection: close` and its connection closes when it ends (drain.ts); in-flight requests get
 * up to `timeoutMs` to finish, then `abortInFlight()` stops their store work (they answer 503)
 * and every connection is closed. Resolves as soon as the last connection has closed.
 */
export async function stopGracefully(
  server: Server,
  timeoutMs: number,
  abortInFlight: () => void,
): Promise<'drained' | 'aborted'> {
  const { closed } = drainConnections(server);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'aborted'>((resolve) => {
    timer = setTimeout(() => resolve('aborted'), timeoutMs);
  });
  const outcome = await Promise.race([closed.then(() => 'drained' as const), deadline]);
  clearTimeout(timer);
  if (outcome === 'aborted') {
    abortInFlight();
    // Give the aborted requests a moment to send their 503, then close what is left.
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.closeAllConnections();
    await closed;
  }
  return outcome;
}
