import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Term } from '@rdfjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { histogramHints } from '../../src/cache/histogram-hints.js';
import { histogramWindow } from '../../src/execute/histogram-window.js';
import type { ListHints } from '../../src/execute/list-hints.js';
import { listQuery } from '../../src/execute/paths/list-shape.js';
import { planListRead } from '../../src/execute/paths/plan-list-read.js';
import { countValue, groupValues } from '../../src/execute/rows.js';
import { listLane, runQuery } from '../../src/execute/run-query.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Attribute, Mapping } from '../../src/mapping/model.js';
import type { ListRequest, Window } from '../../src/plan/plan.js';
import { parseSort } from '../../src/request/parse-sort.js';
import { buildFetchQuery } from '../../src/sparql/fetch-query.js';
import { buildCountQuery } from '../../src/sparql/list-query.js';
import { createOxigraphStore } from '../../src/store/oxigraph-store.js';
import { QueryRecorder } from '../../src/store/query-recorder.js';
import type { Row, Store } from '../../src/store/store.js';
import { describeEachStore } from '../support/each-store.js';
import { SAMPLE_DATA } from '../support/global-setup.js';
import { MULTI_FIELD_CASES, singleFieldCases } from '../support/sort-cases.js';

/*
 * A window read through its first sort key's histogram (execute/histogram-window.ts, where the planner sends it: paths/plan-list-read.ts) must be the
 * window the plain list query reads, row for row, with the list's count, or the count alone (the
 * caller then reads the window the plain way). The server only takes this path for lists of 5,000 members or more; here it is called
 * directly, on every sort whose first key allows it and on windows that start and end on every
 * kind of boundary: the plain query is the reference, on both stores, on the sample and on the
 * real-shapes fixture (mixed datatypes, odd strings, huge numbers, several values where the
 * mapping says one).
 */

/**
 * Windows over a list of `total` rows: single rows and pages of 3 and 7 that start at every place
 * on short lists and at some 15 places on long ones, so that windows start, end and straddle
 * block ends (every block end lies inside a page of 7 while the step is at most 6).
 */
function windows(total: number): Window[] {
  const step = Math.max(1, Math.floor(total / 15));
  const found: Window[] = [];
  for (const limit of [1, 3, 7]) for (let offset = 0; offset <= total; offset += step) found.push({ offset, limit });
  return found;
}

async function checkSorts(
  mapping: Mapping,
  store: Store,
  cases: { type: string; sort: string }[],
): Promise<{ compared: number; read: number }> {
  let compared = 0;
  let read = 0;
  for (const { type: name, sort } of cases) {
    const type = mapping.types.get(name)!;
    const request: ListRequest = { type, sort: parseSort(sort, mapping, type), filters: [] };
    const [countRow] = await runQuery(
      store,
      buildCountQuery(mapping, request, { oneGraph: false }),
      listLane(request),
      'count',
    );
    const total = countValue(countRow, 'count');
    for (const window of windows(total)) {
      // Every list is long enough here (0): the server itself reads lists of 5,000 or more this way.
      const plainRead = { request, window, count: 'query', attributes: [] } as const;
      const path = planListRead(mapping, plainRead, {
        oneGraph: false,
        windowCache: false,
        hints,
      });
      // Not a list for a histogram (its first key is the id, or not flat), or one of too many values.
      if (path.kind !== 'histogram') break;
      const viaHistogram = await histogramWindow(mapping, request, {
        window,
        store,
        text: path.text,
        guess: plannedGuess(mapping, request, window, hints),
        hints,
      });
      compared++;
      expect(viaHistogram.total, `${name}?sort=${sort} count`).toBe(total);
      if (viaHistogram.kind === 'fall-back') continue;
      read++;
      const plain = await runQuery(store, listQuery(mapping, request, { window }), listLane(request), 'list');
      expect(ids(viaHistogram.rows), `${name}?sort=${sort} ${JSON.stringify(window)}`).toEqual(ids(plain));
    }
  }
  return { compared, read };
}

/** One app's hints, as the server keeps them (`cache/histogram-hints.ts`). */
const hints = histogramHints();

const ids = (rows: Row[]) => rows.map((row) => `${row.s?.value} ${row.s_id?.value ?? ''}`);

/** The labels of the queries a recorder saw (`histogram`, `histogram+range`, `range`, …). */
const labelsOf = (recorder: QueryRecorder) => recorder.recorded.map((query) => query.label);

/** A member's values by field, each field's as a sorted list of its terms' text (none: no fields). */
const valueSets = (fields: ReadonlyMap<string, readonly Term[]> | undefined) =>
  Object.fromEntries([...(fields ?? [])].map(([field, values]) => [field, values.map(termText).sort()]));
const termText = (term: Term) =>
  JSON.stringify([term.termType, term.value, term.termType === 'Literal' ? [term.language, term.datatype.value] : []]);

/** The members of a window's rows, each once, in order (a window with values has a row per value). */
const members = (rows: Row[]) => [...new Set(ids(rows))];

describeEachStore('windows read through the sort key histogram', (harness) => {
  it('are the plain query’s windows, on every flat sort of the sample', async () => {
    const { mapping, store } = harness();
    const recorder = new QueryRecorder(store);
    const cases = [...singleFieldCases(mapping), ...MULTI_FIELD_CASES];
    const { compared, read } = await checkSorts(mapping, recorder.store, cases);
    // The sample's data adds up: most windows are read through the histogram, not handed back.
    expect(compared).toBeGreaterThan(500);
    expect(read / compared).toBeGreaterThan(0.9);
    // After a list's first window, its last histogram places most of the next ones: they came
    // with the histogram, in one query (a list of one key whose values cannot tie).
    expect(labelsOf(recorder).filter((label) => label === 'histogram+range').length).toBeGreaterThan(100);
  }, 300_000);

  it('carry their members’ values when a window comes with the histogram, as the fetch query reads them', async () => {
    const { mapping, store } = harness();
    let guessed = 0;
    for (const { type: name, sort } of singleFieldCases(mapping)) {
      const type = mapping.types.get(name)!;
      const attributes = [...type.attributes.values()];
      const request: ListRequest = { type, sort: parseSort(sort, mapping, type), filters: [] };
      const read = { request, window: { offset: 0, limit: 7 }, count: 'query', attributes } as const;
      const path = planListRead(mapping, read, {
        oneGraph: false,
        windowCache: false,
        hints,
      });
      if (path.kind !== 'histogram') continue;
      const [countRow] = await runQuery(
        store,
        buildCountQuery(mapping, request, { oneGraph: false }),
        listLane(request),
        'count',
      );
      for (const window of windows(countValue(countRow, 'count')).filter(({ limit }) => limit === 7)) {
        const recorder = new QueryRecorder(store);
        const found = await histogramWindow(mapping, request, {
          window,
          store: recorder.store,
          text: path.text,
          guess: plannedGuess(mapping, request, window, hints, attributes),
          attributes,
          hints,
        });
        if (found.kind === 'fall-back') continue;
        const where = `${name}?sort=${sort} ${JSON.stringify(window)}`;
        const plain = await runQuery(store, listQuery(mapping, request, { window }), listLane(request), 'list');
        expect(members(found.rows), where).toEqual(ids(plain));
        const labels = labelsOf(recorder);
        if (labels[0] !== 'histogram+range') continue;
        guessed++;
        expect(labels, where).toEqual(['histogram+range']);
        expect(found.withValues, where).toBe(true);
        const iris = plain.map((row) => row.s!.value);
        const fetched = await runQuery(store, buildFetchQuery(type, { iris }, attributes), 'light', 'fetch');
        const [carried, reference] = [groupValues(found.rows, found.carried?.name), groupValues(fetched)];
        // A member with no value of them has no rows in the fetch query's answer; values come in no order.
        for (const iri of iris)
          expect(valueSets(carried.get(iri)), `${where} ${iri}`).toEqual(valueSets(reference.get(iri)));
      }
    }
    expect(guessed).toBeGreaterThan(20);
  }, 300_000);
});

describe('[embedded] a window guessed from a histogram that has changed since', () => {
  let dir: string;
  let mapping: Mapping;
  let before: Store;
  let after: Store;
  beforeAll(async () => {
    mapping = await loadMapping('mappings/sample.yaml');
    before = await createOxigraphStore({ files: [SAMPLE_DATA] });
    // The same data, and three trade activities more in a year it has: every block after that
    // year starts three rows later, and that year's block holds three rows more.
    const [year] = await before.select(
      'SELECT ?y WHERE { ?s <http://linkedeconomy.org/ontology#financialYear> ?y } ORDER BY ?y OFFSET 1 LIMIT 1',
    );
    const added = [1, 2, 3].map(
      (i) =>
        `<http://example.org/added/${i}> a <http://linkedeconomy.org/ontology#TradeActivity>; ` +
        `<http://mu.semte.ch/vocabularies/core/uuid> "added-${i}"; ` +
        `<http://linkedeconomy.org/ontology#financialYear> "${year!.y!.value}"^^<http://www.w3.org/2001/XMLSchema#date> .`,
    );
    dir = await mkdtemp(join(tmpdir(), 'sparql-jsonapi-histogram-'));
    await writeFile(join(dir, 'added.ttl'), `${added.join('\n')}\n`);
    after = await createOxigraphStore({ files: [SAMPLE_DATA, join(dir, 'added.ttl')] });
  });
  afterAll(async () => {
    await before?.close();
    await after?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is read again, not served: each store’s own window, whichever store read the list last', async () => {
    // Both stores share the mapping, so each read of one guesses from the other's last histogram.
    let readAgain = 0;
    for (const sort of ['financial-year', '-financial-year']) {
      const type = mapping.types.get('trade-activities')!;
      const request: ListRequest = { type, sort: parseSort(sort, mapping, type), filters: [] };
      const read = { request, window: { offset: 0, limit: 7 }, count: 'query', attributes: [] } as const;
      const path = planListRead(mapping, read, {
        oneGraph: false,
        windowCache: false,
        hints,
      });
      expect(path.kind).toBe('histogram');
      if (path.kind !== 'histogram') continue;
      for (const window of windows(40).filter(({ limit }) => limit === 7))
        for (const store of [before, after]) {
          const recorder = new QueryRecorder(store);
          const found = await histogramWindow(mapping, request, {
            window,
            store: recorder.store,
            text: path.text,
            guess: plannedGuess(mapping, request, window, hints),
            hints,
          });
          expect(found.kind).toBe('rows');
          if (found.kind !== 'rows') continue;
          const plain = await runQuery(store, listQuery(mapping, request, { window }), listLane(request), 'list');
          expect(ids(found.rows), `${sort} ${JSON.stringify(window)}`).toEqual(ids(plain));
          if (labelsOf(recorder).length === 2) readAgain++;
        }
    }
    // Windows the two histograms place alike are served from the guess; the others are read again.
    expect(readAgain).toBeGreaterThan(10);
  }, 120_000);
});

// QUDT 2.1 (CC BY 4.0, from the pinned devDependency @zazuko/rdf-vocabularies): real data nobody
// here wrote, with huge and tiny numbers, many languages and odd strings, and values that add up.
const QUDT = 'node_modules/@zazuko/rdf-vocabularies/ontologies';
const DATASETS = [
  {
    name: 'qudt',
    mapping: 'mappings/qudt.yaml',
    files: [`${QUDT}/unit.nq`, `${QUDT}/quantitykind.nq`, `${QUDT}/prefix.nq`],
    readsSome: true,
  },
  // Data that breaks its mapping on purpose (several values where it says one): handed back.
  { name: 'real-shapes', mapping: 'test/fixtures/real-shapes.yaml', files: ['test/fixtures/real-shapes.trig'] },
];

for (const dataset of DATASETS)
  describe(`[embedded] windows read through the sort key histogram, ${dataset.name}`, () => {
    let mapping: Mapping;
    let store: Store;
    beforeAll(async () => {
      mapping = await loadMapping(dataset.mapping);
      store = await createOxigraphStore({ files: dataset.files });
    });
    afterAll(() => store.close());

    it('are the plain query’s windows, or handed back', async () => {
      const cases = singleFieldCases(mapping).filter(({ sort }) => !sort.replace(/^-/, '').includes('.'));
      const { compared, read } = await checkSorts(mapping, store, cases);
      expect(compared).toBeGreaterThan(100);
      // Keys of many values (symbols, codes: over 500) are handed back; the rest is read.
      if (dataset.readsSome) expect(read).toBeGreaterThan(500);
    }, 300_000);
  });

/** The page the planner guesses from the list's last histogram (it rides along with the histogram query), as `listPage` plans it. */
function plannedGuess(
  mapping: Mapping,
  request: ListRequest,
  window: Window,
  hints: ListHints,
  attributes: readonly Attribute[] = [],
) {
  const read = { request, window, count: 'query', attributes } as const;
  const path = planListRead(mapping, read, { oneGraph: false, windowCache: false, hints });
  return path.kind === 'histogram' ? path.guess : undefined;
}
