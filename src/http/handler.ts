import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

/**
 * What the app's handlers are given: Node's own request and response, as Express's router passes
 * them on (with its `originalUrl`). The app keeps Express from setting its prototypes on them
 * (`app.ts`, {@link plainRequests}), so Express's helpers (`res.send`, `res.vary`, `req.accepts`)
 * are not there: handlers use Node's API and the packages Express itself uses (vary, accepts).
 */
export type Request = IncomingMessage & { readonly originalUrl: string };
export type Response = ServerResponse<IncomingMessage>;
export type Next = (error?: unknown) => void;
export type Handler = (req: Request, res: Response, next: Next) => void | Promise<void>;
export type ErrorHandler = (error: unknown, req: Request, res: Response, next: Next) => void;

/**
 * Express gives every request and response its own prototypes (`Object.setPrototypeOf`, in
 * `app.handle`): on Node 20 V8 then moves both objects off their fast shapes, and everything Node
 * and the handlers do with them afterwards runs slower. Measured on a single resource, sequential,
 * Virtuoso 100k: 50–70 µs a request, a sixth of what the server adds to the store's time
 * (docs/performance.md). Given Node's own prototypes instead, Express's swap finds them in place
 * and does nothing; the router (paths, `next`, errors, async handlers) works as before. Only for
 * apps whose handlers are {@link Handler}s.
 *
 * @example const app = plainRequests(express())
 */
export function plainRequests(app: Express): Express {
  app.request = IncomingMessage.prototype as unknown as Express['request'];
  app.response = ServerResponse.prototype as unknown as Express['response'];
  // Mounted in another Express app (`parent.use('/api', app)`), a sub-app's prototypes are made
  // to inherit the parent's: Express sets the parent's as theirs. Before it does, the app gets
  // objects of its own, so that Node's prototypes are never changed; its requests then swap as
  // any sub-app's do.
  app.prependListener('mount', () => {
    app.request = Object.create(IncomingMessage.prototype);
    app.response = Object.create(ServerResponse.prototype);
  });
  return app;
}
