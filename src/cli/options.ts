import type { ParseArgsConfig } from 'node:util';

// The CLI's option definitions, in node:util parseArgs format, in one place so that the
// CLI, the loader and the docker-compose test agree on the flags that exist.

/** Options of `sparql-jsonapi serve`. */
export const serveOptions = {
  mapping: { type: 'string' },
  data: { type: 'string', multiple: true },
  endpoint: { type: 'string' },
  graph: { type: 'string' },
  dataset: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  config: { type: 'string' },
  user: { type: 'string' },
  password: { type: 'string' },
  'link-base': { type: 'string' },
  'public-base': { type: 'string' },
  'trust-proxy': { type: 'boolean' },
  workers: { type: 'string' },
  'cors-origin': { type: 'string', multiple: true },
  'cache-ttl': { type: 'string' },
  'window-cache-ttl': { type: 'string' },
  'cache-control': { type: 'string' },
  'filter-syntax': { type: 'string' },
  linkage: { type: 'string' },
  'delta-listen': { type: 'string' },
  'delta-token': { type: 'string' },
  watch: { type: 'boolean' },
  'watch-debounce': { type: 'string' },
  explain: { type: 'boolean' },
  'log-requests': { type: 'boolean' },
  help: { type: 'boolean' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/** Options of `sparql-jsonapi load`. */
export const loadOptions = {
  endpoint: { type: 'string' },
  graph: { type: 'string' },
  'graph-store': { type: 'string' },
  user: { type: 'string' },
  password: { type: 'string' },
  'batch-size': { type: 'string' },
  append: { type: 'boolean' },
  replace: { type: 'boolean' },
  'no-staging': { type: 'boolean' },
  'clean-staging': { type: 'boolean' },
  timeout: { type: 'string' },
  help: { type: 'boolean' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/** Options of `sparql-jsonapi scaffold`. */
export const scaffoldOptions = {
  data: { type: 'string', multiple: true },
  endpoint: { type: 'string' },
  graph: { type: 'string' },
  user: { type: 'string' },
  password: { type: 'string' },
  out: { type: 'string' },
  force: { type: 'boolean' },
  'sample-size': { type: 'string' },
  help: { type: 'boolean' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;
