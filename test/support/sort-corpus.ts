import fc from 'fast-check';
import type { Mapping } from '../../src/mapping/model.js';
import { changedAtLoad } from './load-losses.js';
import { codePointCompare, type Oracle, type Resource } from './oracle.js';
import { sortablePaths } from './sort-cases.js';

/*
 * The generated sort corpus of the equivalence suite (test/integration/same-answers.test.ts):
 * random sort lists of 1 to 3 keys, over attributes, to-one and to-many paths, in either direction,
 * on collections and related lists, each walked to the end by page number and by cursor on every
 * store, both compared with the order the oracle computes from the data. fast-check draws the
 * cases; a failure names its seed and path, so that `SORT_CORPUS_SEED=<seed>` runs it again.
 */

/** One list to sort: a collection, or a related list of one parent. */
export interface SortedList {
  /** The list's URL path: `/units`, `/quantity-kinds/Length/units`. */
  readonly path: string;
  /** The members' type. */
  readonly type: string;
  /** The members, from the data. */
  readonly members: readonly Resource[];
}

/** One drawn case: a list (its path), a sort of it, and the page size of its walks. */
export interface SortCase {
  readonly list: string;
  readonly sort: string;
  readonly size: number;
}

/** What a walk of a list gives: the ids in walk order, and what went wrong on the way (a status, a repeat, a wrong count). */
export interface Walk {
  readonly ids: string[];
  readonly problems: string[];
}

/** A store the corpus walks: its name (`embedded`, `virtuoso`, …) and how to walk a list on it. */
export interface WalkedStore {
  readonly name: string;
  walk(path: string, sort: string, size: number, cursor: boolean): Promise<Walk>;
}

/** The lists the corpus sorts: every type's collection of at most `maxCollection` members, and related lists of two parents per to-many relationship (the fullest, and a middling one of at least 3). */
export function sortedLists(oracle: Oracle, mapping: Mapping, maxCollection: number): SortedList[] {
  const lists: SortedList[] = [];
  for (const type of mapping.types.values()) {
    const members = oracle.members(type.name);
    if (members.length > 0 && members.length <= maxCollection)
      lists.push({ path: `/${type.name}`, type: type.name, members });
    for (const rel of type.relationships.values()) {
      if (rel.cardinality !== 'many') continue;
      const parents = members
        .map((parent) => ({ parent, targets: oracle.related(type.name, parent.iri, rel.name) }))
        .filter((p) => p.targets.length >= 3)
        .sort((a, b) => b.targets.length - a.targets.length || codePointCompare(a.parent.id, b.parent.id));
      for (const chosen of new Set([parents[0], parents[Math.floor(parents.length / 2)]]))
        if (chosen)
          lists.push({
            path: `/${type.name}/${encodeURIComponent(chosen.parent.id)}/${rel.name}`,
            type: rel.target,
            members: chosen.targets,
          });
    }
  }
  return lists;
}

/**
 * Cases over `lists`: a sort of 1 to 3 distinct fields among `id`, the type's attributes and the
 * attributes one relationship away (to-one and to-many), each ascending or descending, at most
 * `maxSeveral` of them (2 unless given) through a to-many relationship or a `many` attribute: a
 * collection's grouped list query joins every key's values per member, so such keys multiply its
 * rows (three through real-shapes' items: 4.5 s embedded for /groups against 0.3 s for two, past
 * the 10 s deadline under the suite's load); a related list's computes each per member. A page size that makes 2 to 6 pages, at most `maxPageSize`.
 */
export function sortCaseArbitrary(mapping: Mapping, lists: readonly SortedList[], maxPageSize: number, maxSeveral = 2) {
  return fc.constantFrom(...lists).chain((list) => {
    const type = mapping.types.get(list.type)!;
    const paths = ['id', ...sortablePaths(mapping, type, 1)];
    const keys = fc
      .uniqueArray(fc.record({ path: fc.constantFrom(...paths), descending: fc.boolean() }), {
        minLength: 1,
        maxLength: 3,
        selector: (key) => key.path,
      })
      .filter((ks) => ks.filter((k) => severalValued(mapping, list.type, k.path)).length <= maxSeveral);
    const n = list.members.length;
    const size = fc
      .integer({ min: 2, max: 6 })
      .map((pages) => Math.max(1, Math.min(maxPageSize, Math.ceil(n / pages))));
    return fc.record({
      list: fc.constant(list.path),
      sort: keys.map((ks) => ks.map((k) => `${k.descending ? '-' : ''}${k.path}`).join(',')),
      size,
    });
  });
}

/**
 * Walks one case on every store, by offset and by cursor, and says what is wrong: a walk's own
 * problems; the offset walk against the oracle's order (on a store that changes values at load,
 * both without the members whose keys reach such a value: their place is the store's to decide);
 * the cursor walk against the offset walk, exactly.
 */
export async function sortCaseProblems(
  oracle: Oracle,
  stores: readonly WalkedStore[],
  list: SortedList,
  { sort, size }: SortCase,
): Promise<string[]> {
  const order = oracle.order(list.type, [...list.members], sort);
  const fields = sort.split(',');
  const problems: string[] = [];
  await Promise.all(
    stores.map(async (store) => {
      const [offset, cursor] = await Promise.all([
        store.walk(list.path, sort, size, false),
        store.walk(list.path, sort, size, true),
      ]);
      problems.push(...[...offset.problems, ...cursor.problems].map((p) => `${store.name}: ${p}`));
      const changed = new Set(
        list.members
          .filter((m) => fields.some((f) => oracle.keyTerms(list.type, m, f).some((t) => changedAtLoad(store.name, t))))
          .map((m) => m.id),
      );
      const kept = (ids: readonly string[]) => ids.filter((id) => !changed.has(id));
      if (!sameList(kept(offset.ids), kept(order)))
        problems.push(`${store.name}: offset walk ≠ the data's order: ${idListDiff(kept(offset.ids), kept(order))}`);
      if (!sameList(cursor.ids, offset.ids))
        problems.push(`${store.name}: cursor walk ≠ offset walk: ${idListDiff(cursor.ids, offset.ids)}`);
    }),
  );
  return problems;
}

/**
 * The corpus's seed: `SORT_CORPUS_SEED` (a number, or `random` for the clock's), else
 * {@link DEFAULT_SEED}, so that `npm test` and CI walk the same cases every time and a red run is
 * the code's doing, not the draw's. Hunting for new bugs is a run with `SORT_CORPUS_SEED=random`
 * (and `SORT_CORPUS_SCALE`), whose failures name their seed.
 */
export function corpusSeed(given: string | undefined): number {
  if (given === 'random') return Date.now() % 2 ** 31;
  return given === undefined || given === '' ? DEFAULT_SEED : Number(given);
}
const DEFAULT_SEED = 23;

/**
 * Runs `runs` cases (times `SORT_CORPUS_SCALE`, 1 unless set: more to hunt for bugs) drawn from
 * the seed of {@link corpusSeed}, logging the seed first; the first failing
 * case fails with fast-check's report (its seed and path) and the case's problems. No shrinking:
 * each run walks lists on every store. Returns how many cases were walked.
 */
export async function checkSortCorpus(
  oracle: Oracle,
  mapping: Mapping,
  stores: readonly WalkedStore[],
  options: {
    label: string;
    runs: number;
    maxCollection: number;
    maxPageSize: number;
    maxSeveral?: number;
    fixed?: readonly SortCase[];
  },
): Promise<number> {
  const lists = sortedLists(oracle, mapping, options.maxCollection);
  const byPath = new Map(lists.map((list) => [list.path, list]));
  // Cases that once failed, walked first on every run.
  for (const c of options.fixed ?? []) {
    const list = byPath.get(c.list) ?? listAt(oracle, mapping, c.list);
    const problems = await sortCaseProblems(oracle, stores, list, c);
    if (problems.length > 0) throw new Error(`${c.list}?sort=${c.sort} by ${c.size}:\n  ${problems.join('\n  ')}`);
  }
  const seed = corpusSeed(process.env.SORT_CORPUS_SEED);
  const runs = options.runs * Number(process.env.SORT_CORPUS_SCALE ?? 1);
  console.log(`sort corpus ${options.label}: ${runs} cases over ${lists.length} lists, seed ${seed}`);
  let walked = 0;
  await fc.assert(
    fc.asyncProperty(sortCaseArbitrary(mapping, lists, options.maxPageSize, options.maxSeveral), async (c) => {
      const problems = await sortCaseProblems(oracle, stores, byPath.get(c.list)!, c);
      walked++;
      if (problems.length > 0) throw new Error(`${c.list}?sort=${c.sort} by ${c.size}:\n  ${problems.join('\n  ')}`);
    }),
    { seed, numRuns: runs, endOnFailure: true },
  );
  return walked;
}

/** Whether a sort path (`quantity-kinds.label`) may reach several values: a to-many hop, or a `many` attribute. */
function severalValued(mapping: Mapping, typeName: string, path: string): boolean {
  let type = mapping.types.get(typeName)!;
  const names = path.split('.');
  for (const name of names.slice(0, -1)) {
    const rel = type.relationships.get(name)!;
    if (rel.cardinality === 'many') return true;
    type = mapping.types.get(rel.target)!;
  }
  return type.attributes.get(names.at(-1)!)?.many ?? false;
}

/** The list at a path (`/type` or `/type/id/relationship`), from the data. */
function listAt(oracle: Oracle, mapping: Mapping, path: string): SortedList {
  const [type, id, relationship] = path.split('/').slice(1).map(decodeURIComponent) as [string, string?, string?];
  if (id === undefined || relationship === undefined) return { path, type, members: oracle.members(type) };
  const parent = oracle.member(type, id);
  if (!parent) throw new Error(`no ${type} ${id} in the data`);
  const target = mapping.types.get(type)!.relationships.get(relationship)!.target;
  return { path, type: target, members: oracle.related(type, parent.iri, relationship) };
}

const sameList = (a: readonly string[], b: readonly string[]) => JSON.stringify(a) === JSON.stringify(b);

/** Where two id lists first part, with a few ids of context on each side. */
export function idListDiff(a: readonly string[], b: readonly string[]): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const some = (list: readonly string[]) => JSON.stringify(list.slice(i, i + 5));
  return `first difference at #${i} (${a.length} vs ${b.length} ids): ${some(a)} vs ${some(b)}`;
}
