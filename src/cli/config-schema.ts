import { z } from 'zod';
import { isSafeAbsoluteIri } from '../mapping/iri.js';

/** A whole number in a range, with one message for every way a value can miss it. */
const wholeNumber = (min: number, max: number, expected: string) =>
  z.number({ error: expected }).int({ error: expected }).min(min, { error: expected }).max(max, { error: expected });

/** How many queries may wait in a lane. */
const queueLength = wholeNumber(0, 100_000, 'expected a queue length from 0 to 100000');

/** A duration in seconds, 0 or more. */
const seconds = z.number({ error: 'expected a number of seconds' }).min(0, { error: 'expected a number of seconds' });

/**
 * How to reach one dataset's triples: files for the embedded store, or an endpoint. `graph` is the
 * graph queried, with either: the endpoint's `default-graph-uri`, or the one named graph of the
 * files served (without it, the files serve the union of all their graphs).
 */
export const datasetSchema = z
  .strictObject({
    // Without a mapping, serve scaffolds one from the data (scaffold/serve-scaffold.ts).
    mapping: z.string().optional(),
    data: z.array(z.string()).min(1).optional(),
    workers: wholeNumber(1, 64, 'expected a number of worker threads from 1 to 64').optional(),
    endpoint: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
    graph: z
      .string()
      .refine(isSafeAbsoluteIri, { error: 'expected an absolute IRI (http://example.org/graph)' })
      .optional(),
    user: z.string().optional(),
    password: z.string().optional(),
    // Each request's deadline (default 10 000): past it the store's work stops and the answer is a 504.
    timeoutMs: wholeNumber(100, 600_000, 'expected a number of milliseconds from 100 to 600000').optional(),
    // Admission control: how many queries of each lane run at once against the store, and how
    // many may wait (per lane); past that, 503 with Retry-After. See src/store/store.ts `Lane`.
    queries: z
      .strictObject({
        light: wholeNumber(1, 256, 'expected a number of queries from 1 to 256').optional(),
        heavy: wholeNumber(1, 256, 'expected a number of queries from 1 to 256').optional(),
        // One length for both lanes, or { light, heavy }.
        queue: z
          .union([queueLength, z.strictObject({ light: queueLength.optional(), heavy: queueLength.optional() })])
          .optional(),
      })
      .optional(),
    // What one request may ask (plan/plan.ts RequestLimits); past a limit, a 400.
    limits: z
      .strictObject({
        sortFields: wholeNumber(1, 100, 'expected a number from 1 to 100').optional(),
        filters: wholeNumber(1, 1000, 'expected a number from 1 to 1000').optional(),
        includePaths: wholeNumber(1, 1000, 'expected a number from 1 to 1000').optional(),
        included: wholeNumber(1, 1_000_000, 'expected a number from 1 to 1000000').optional(),
      })
      .optional(),
    // The prefix of every link: '' (type-rooted paths), an absolute path, or an http(s) URL; no query or fragment.
    linkBase: z
      .string()
      .refine((v) => v === '' || /^\/(?!\/)[^?#\s]*$/.test(v) || /^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(v), {
        error: 'expected an absolute path (/api/data) or an http(s) URL (https://data.example.org/api), without ? or #',
      })
      .optional(),
    page: z
      .strictObject({ defaultSize: z.number().int().min(1).optional(), maxSize: z.number().int().min(1).optional() })
      .optional(),
    count: z.boolean().optional(),
    // Resource linkage (`data`) in relationship objects without `include` (mapping/linkage.ts):
    // none (the default: only where the mapping says linkage: true), or to-one relationships too.
    linkage: z.enum(['none', 'to-one'], { error: 'expected none or to-one' }).optional(),
    includeDepth: z.number().int().min(1).max(10).optional(),
    // Checked here so that a value Node would refuse as a header fails at start-up, not per request.
    cacheControl: z
      .string()
      .regex(/^[\x20-\x7e]+$/, 'expected a header value in printable ASCII, e.g. "public, max-age=60"')
      .optional(),
    cacheTtlSeconds: seconds.optional(),
    // The window cache (whole ordered lists, every page cut from them): 0 turns it off. Default:
    // on without expiry for the embedded store, off for an endpoint (its data may change).
    windowCacheTtlSeconds: seconds.optional(),
    // mu-cl-resources: filters also read its syntax (filter[:exact:name]…), for its front-ends.
    filterSyntax: z.enum(['json-api', 'mu-cl-resources'], { error: 'expected json-api or mu-cl-resources' }).optional(),
    // Answer `explain-plan` (the plan and each SPARQL query in meta.explain); off by default.
    explain: z.boolean().optional(),
  })
  .refine((d) => (d.data === undefined) !== (d.endpoint === undefined), {
    error: 'give either data (files for the embedded store) or endpoint, not both',
  })
  .refine((d) => (d.page?.defaultSize ?? 20) <= (d.page?.maxSize ?? Math.max(100, d.page?.defaultSize ?? 0)), {
    error: 'page.defaultSize may not exceed page.maxSize',
    path: ['page'],
  });

/** An origin as browsers send it: scheme, host and port only (`https://app.example.org`). */
export const originSchema = z.string().refine((value) => URL.canParse(value) && new URL(value).origin === value, {
  error: 'an origin: scheme://host[:port], with no path or trailing slash',
});

/** `HOST:PORT` (an IPv6 host in brackets): where the delta listener listens. */
const listenAddress = z
  .string()
  .regex(/^(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+):\d{1,5}$/, {
    error: 'expected HOST:PORT, e.g. 127.0.0.1:8081 or 0.0.0.0:8081',
  })
  .refine((v) => !/:\d+$/.test(v) || Number(v.slice(v.lastIndexOf(':') + 1)) <= 65535, {
    error: 'expected a port number up to 65535',
  });

export const configSchema = z.strictObject({
  port: wholeNumber(0, 65535, 'expected a port number (0 to 65535)').optional(),
  host: z.string().optional(),
  default: z.string().optional(),
  cors: z
    .strictObject({
      origins: z.union([z.literal('*'), z.array(originSchema)]),
      // Request headers a preflight may ask for (default: Accept, Content-Type, If-None-Match, Authorization, X-Requested-With).
      allowHeaders: z.array(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'expected a header name')).optional(),
    })
    .optional(),
  cacheMaxMegabytes: z.number().positive().optional(),
  // Memory bound of the window cache, shared by every dataset that uses it (default 256).
  windowCacheMaxMegabytes: z.number().positive().optional(),
  // /metrics: on the API's port (default), on a port of its own, behind a bearer token, or off.
  metrics: z
    .strictObject({
      enabled: z.boolean().optional(),
      port: wholeNumber(0, 65535, 'expected a port number (0 to 65535)').optional(),
      token: z.string().min(16, 'expected a token of at least 16 characters').optional(),
    })
    .optional(),
  // /health: its own deadline (default 2000 ms); `details: true` shows each store's description.
  health: z
    .strictObject({
      timeoutMs: wholeNumber(100, 60_000, 'expected a number of milliseconds from 100 to 60000').optional(),
      details: z.boolean().optional(),
    })
    .optional(),
  // SIGTERM: how long in-flight requests may finish before they are aborted (default 10 000).
  shutdownTimeoutMs: wholeNumber(0, 600_000, 'expected a number of milliseconds from 0 to 600000').optional(),
  // Share of requests written to the access log, from 0 (off, the default) to 1 (every one).
  accessLogSample: z.number().min(0).max(1).optional(),
  // Log every request (accessLogSample 1): the one switch for a log line per successful request too.
  logRequests: z.boolean().optional(),
  // Longest request URL (path and query) accepted; longer ones get 414 (default 8192).
  maxUrlLength: wholeNumber(256, 65_536, 'expected a length from 256 to 65536').optional(),
  // serve --watch: reload a dataset whose data file (embedded store) or mapping file changes.
  watch: z.boolean().optional(),
  // Quiet time after a file's last change before its reload starts (default 200: editors write in steps).
  watchDebounceMs: wholeNumber(0, 60_000, 'expected a number of milliseconds from 0 to 60000').optional(),
  // Live data: a second listener for delta-notifier's messages (docs/live-data.md); with it, every
  // dataset's caches are on without expiry unless its TTLs say otherwise.
  deltas: z
    .strictObject({
      listen: listenAddress,
      token: z.string().min(16, 'expected a token of at least 16 characters').optional(),
      maxMegabytes: z.number().positive().optional(),
    })
    .optional(),
  // The URL at which clients reach this server's `/` (scheme, host, optional path): every link of
  // every document starts with it. Default: none, links are paths (`/concepts/…`).
  publicBase: z
    .string()
    .refine((v) => /^https?:\/\/[^/?#\s@]+(\/[^?#\s]*)?$/i.test(v) && URL.canParse(v), {
      error: 'expected an http(s) URL without ? or # (https://data.example.org, https://example.org/api)',
    })
    .transform((v) => v.replace(/\/+$/, ''))
    .optional(),
  // Behind a proxy that sets them: links start with the base that `Forwarded` (or X-Forwarded-Proto,
  // -Host and -Prefix) give, where they are well-formed; else with publicBase, or paths.
  trustProxy: z.boolean().optional(),
  datasets: z.record(z.string().regex(/^[a-zA-Z0-9_-]+$/, 'dataset names: letters, digits, - and _'), datasetSchema),
});

export type DatasetConfig = z.infer<typeof datasetSchema>;
export type ConfigFile = z.infer<typeof configSchema>;

/** A flag's value as a number when it reads as one; as it is otherwise, so the schema names the problem. */
export const numeric = (value: string): number | string =>
  value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
