import type { Store } from '../../src/store/store.js';

/**
 * The store, with the text of every query that goes through it appended to `sent`: what a suite
 * checks the server really asks of the store.
 *
 * @example const sent: string[] = []; createApp({ datasets: [{ name, mapping, store: noteQueries(store, sent), linkBase: '' }] })
 */
export function noteQueries(store: Store, sent: string[]): Store {
  return {
    description: store.description,
    oneGraph: store.oneGraph,
    select: (query, options) => {
      sent.push(query);
      return store.select(query, options);
    },
    ping: (options) => store.ping(options),
    close: () => store.close(),
  };
}
