import type { SparqlQuery } from 'sparqljs';
import type { ListRequest } from '../plan/plan.js';
import type { TextOrder } from '../rdf/text-order.js';
import { type FilledQuery, toText } from '../sparql/to-text.js';
import { decorateStore } from '../store/decorate-store.js';
import type { Lane, Row, Store } from '../store/store.js';

/** A query already written in the store's text order, by the planner (a histogram's text, kept by the template memo). */
export interface WrittenQuery {
  readonly text: string;
}

/**
 * Sends a query built as a sparqljs AST (or a template's, filled; or one the planner wrote) to the
 * store: AST → text (in the store's text order) → rows, in its admission lane, with a `label`
 * saying what it is for (explain and the debug log show it). Every query the executor sends goes
 * through here.
 *
 * @example await runQuery(store, buildFetchQuery(type, { iris }, attributes), 'light', 'fetch')
 */
export function runQuery(
  store: Store,
  query: SparqlQuery | FilledQuery | WrittenQuery,
  lane: Lane,
  label: string,
): Promise<Row[]> {
  return store.select(queryText(query, store.textOrder), { lane, label });
}

/**
 * A query's text as {@link runQuery} sends it to a store of `textOrder`: what the dry plan shows
 * (`?explain-plan=dry`), the same text the run sends.
 *
 * @example queryText(buildCountQuery(mapping, request, { oneGraph: false }), 'code point')
 */
export function queryText(query: SparqlQuery | FilledQuery | WrittenQuery, textOrder: TextOrder | undefined): string {
  return 'text' in query && typeof query.text === 'string'
    ? query.text
    : toText(query as SparqlQuery | FilledQuery, textOrder);
}

/**
 * The lane of a list's list and count queries: a type's whole collection is heavy (its cost grows
 * with the data); what one resource's relationship points at is light.
 */
export const listLane = (request: ListRequest): Lane => (request.parent ? 'light' : 'heavy');

/**
 * The store as one request sees it: every query carries the request's signal, so the client going
 * away or the request's deadline stops the store's work.
 *
 * @example execute(mapping, plan, withSignal(recorder, signal), links)
 */
export function withSignal(store: Store, signal: AbortSignal): Store {
  return decorateStore(store, { select: (query, options, next) => next(query, { ...options, signal }) });
}
