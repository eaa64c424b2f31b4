import { LRUCache } from 'lru-cache';

/**
 * What the query builders keep from one request to the next (a query's text, a template of it):
 * per owner, a mapping or a resource type (a WeakMap, so a reloaded mapping's are let go with it),
 * and per shape, a string key that holds whatever else the kept value depends on; the `max` most
 * recently used shapes of each owner. `make` gives the value of a shape not kept, which is kept
 * whatever it is (wrap an absent answer, e.g. `{ text: null }`).
 *
 * @example const texts = keptPerOwner<Mapping, { text: string | null }>(256); texts(mapping, key, () => ({ text: write() ?? null }))
 */
export function keptPerOwner<Owner extends object, Value extends object>(
  max: number,
): (owner: Owner, key: string, make: () => Value) => Value {
  const byOwner = new WeakMap<Owner, LRUCache<string, Value>>();
  return (owner, key, make) => {
    let kept = byOwner.get(owner);
    if (!kept) byOwner.set(owner, (kept = new LRUCache({ max })));
    let value = kept.get(key);
    if (value === undefined) kept.set(key, (value = make()));
    return value;
  };
}
