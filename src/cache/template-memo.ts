import type { MemoUse, TemplateMemo } from '../sparql/template-memo.js';
import { keptPerOwner } from './kept-per-owner.js';

/**
 * The query builders' memo of one app (`sparql/template-memo.ts`): per use, the most recently
 * used keys of each owner. Dropped with the app, with an owner (a reloaded mapping's types), and
 * by each use's bound; nothing in it is ever served, it only spares writing a query again.
 *
 * @example const memo = templateMemo(); fetchQuery(type, { iris }, attributes, memo)
 */
export function templateMemo(): TemplateMemo {
  const uses = new Map<string, (owner: object, key: string, make: () => object) => object>();
  return {
    kept<Owner extends object, Value extends object>(use: MemoUse, owner: Owner, key: string, make: () => Value) {
      let kept = uses.get(use.name);
      if (!kept) uses.set(use.name, (kept = keptPerOwner<object, object>(use.max)));
      return kept(owner, key, make) as Value;
    },
  };
}
