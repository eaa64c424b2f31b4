import type { TextOrder } from '../rdf/text-order.js';
import type { Row, SelectOptions, Store } from './store.js';

/** What a decorator changes of a store; whatever it leaves out passes through to the store. */
export interface StoreDecoration {
  /** Each query: `next` sends it on to the decorated store. */
  readonly select?: (query: string, options: SelectOptions | undefined, next: Store['select']) => Promise<Row[]>;
  /** The text order, read at each query (the engine check's finding). */
  readonly textOrder?: () => TextOrder | undefined;
  /** What closing does (a store lent to a request closes nothing). */
  readonly close?: () => Promise<void>;
}

/**
 * `store` with a decoration: the one way the server wraps a store (a request's signal, its query
 * recorder, the metrics, the text order found at start-up), so that no wrapper copies the
 * {@link Store} interface. Everything not decorated reads the store as it is at each use.
 *
 * @example decorateStore(store, { select: (query, options, next) => next(query, { ...options, signal }) })
 */
export function decorateStore(store: Store, decoration: StoreDecoration): Store {
  const next: Store['select'] = (query, options) => store.select(query, options);
  const { select, textOrder, close } = decoration;
  return {
    select: select ? (query, options) => select(query, options, next) : next,
    ping: (options) => store.ping(options),
    close: close ?? (() => store.close()),
    get description() {
      return store.description;
    },
    get oneGraph() {
      return store.oneGraph;
    },
    get textOrder() {
      return textOrder ? textOrder() : store.textOrder;
    },
  };
}
