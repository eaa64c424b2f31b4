/*
 * Where a scaffold's data came from, in words for the mapping's header and the messages. The
 * header goes into a file on disk, so an endpoint URL never keeps the `user:password@` someone
 * put in it (`store/endpoint-description.ts`, as the HTTP store's messages show it).
 */

import { endpointDescription } from '../store/endpoint-description.js';

/** Where the data is: files for the embedded store, or an endpoint and its graph. */
export interface DataSource {
  readonly data?: readonly string[];
  readonly endpoint?: string;
  readonly graph?: string;
}

/**
 * The files, or the endpoint (without its credentials) and the graph.
 *
 * @example sourceDescription({ data: ['a.ttl', 'b.nt'] }) // 'a.ttl, b.nt'
 * @example sourceDescription({ endpoint: 'http://u:pw@h/sparql', graph: 'http://g' }) // 'http://h/sparql <http://g>'
 */
export function sourceDescription(source: DataSource): string {
  if (source.data?.length) return source.data.join(', ');
  return endpointDescription(source.endpoint ?? '', source.graph || undefined);
}
