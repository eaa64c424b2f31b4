import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { histogramWindow, manyHistogramValues } from '../../src/execute/histogram-window.js';
import { planListRead } from '../../src/execute/paths/plan-list-read.js';
import { countValue } from '../../src/execute/rows.js';
import { listLane, runQuery } from '../../src/execute/run-query.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import type { Mapping } from '../../src/mapping/model.js';
import type { ListRequest, Window } from '../../src/plan/plan.js';
import { parseSort } from '../../src/request/parse-sort.js';
import { buildCountQuery, buildListQuery } from '../../src/sparql/list-query.js';
import { createOxigraphStore } from '../../src/store/oxigraph-store.js';
import type { Row, Store } from '../../src/store/store.js';
import { describeEachStore } from '../support/each-store.js';
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
 * (every `step`-th place on long lists), so that windows start, end and straddle every block end.
 */
function windows(total: number): Window[] {
  const step = Math.max(1, Math.floor(total / 60));
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
    const [countRow] = await runQuery(store, buildCountQuery(mapping, request, false), listLane(request), 'count');
    const total = countValue(countRow, 'count');
    for (const window of windows(total)) {
      // Every list is long enough here (0): the server itself reads lists of 5,000 or more this way.
      const plainRead = { request, window, count: 'query', attributes: [] } as const;
      const path = planListRead(mapping, plainRead, {
        oneGraph: false,
        windowCache: false,
        manyValues: manyHistogramValues,
      });
      // Not a list for a histogram (its first key is the id, or not flat), or one of too many values.
      if (path.kind !== 'histogram') break;
      const viaHistogram = await histogramWindow(mapping, request, window, store, path.text);
      compared++;
      expect(viaHistogram.total, `${name}?sort=${sort} count`).toBe(total);
      if (viaHistogram.kind === 'plain') continue;
      read++;
      const plain = await runQuery(store, buildListQuery(mapping, request, window), listLane(request), 'list');
      expect(ids(viaHistogram.rows), `${name}?sort=${sort} ${JSON.stringify(window)}`).toEqual(ids(plain));
    }
  }
  return { compared, read };
}

const ids = (rows: Row[]) => rows.map((row) => `${row.s?.value} ${row.s_id?.value ?? ''}`);

describeEachStore('windows read through the sort key histogram', (harness) => {
  it('are the plain query’s windows, on every flat sort of the sample', async () => {
    const { mapping, store } = harness();
    const cases = [...singleFieldCases(mapping), ...MULTI_FIELD_CASES];
    const { compared, read } = await checkSorts(mapping, store, cases);
    // The sample's data adds up: most windows are read through the histogram, not handed back.
    expect(compared).toBeGreaterThan(500);
    expect(read / compared).toBeGreaterThan(0.9);
  }, 300_000);
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
