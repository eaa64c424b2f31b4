/**
 * What the query builders may keep from one request to the next (a query's text, a template of
 * it), declared here and implemented by `cache/template-memo.ts`, one per app: the app gives it
 * through the executor's context, and a builder given none writes every query anew (the same
 * text, more work). Each use names itself and its bound (`use`); per use, values are kept by owner
 * (a mapping or a resource type, let go with it) and by a string key that holds whatever else the
 * kept value depends on. `make` gives the value of a key not kept, kept whatever it is (wrap an
 * absent answer: `{ text: null }`).
 *
 * @example memo.kept({ name: 'fetch', max: 64 }, type, key, () => new QueryTemplate(build))
 */
export interface TemplateMemo {
  kept<Owner extends object, Value extends object>(use: MemoUse, owner: Owner, key: string, make: () => Value): Value;
}

/** One use of a memo: its name (one store of values per name) and how many keys of an owner it keeps. */
export interface MemoUse {
  readonly name: string;
  readonly max: number;
}
