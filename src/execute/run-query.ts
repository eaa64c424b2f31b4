import type { SparqlQuery } from 'sparqljs';
import { toText } from '../sparql/to-text.js';
import type { Row, SelectOptions, Store } from '../store/store.js';

/**
 * Sends a query built as a sparqljs AST to the store: AST → text → rows. Every query the
 * executor sends goes through here.
 *
 * @example await runQuery(store, buildFetchQuery(type, { iris }, attributes))
 */
export function runQuery(store: Store, query: SparqlQuery, options?: SelectOptions): Promise<Row[]> {
  return store.select(toText(query), options);
}
