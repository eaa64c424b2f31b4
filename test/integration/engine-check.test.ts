import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadMapping } from '../../src/mapping/load-mapping.js';
import { createHttpStore } from '../../src/store/http-store.js';
import { checkEngine, type EngineFinding, textOrderOf } from '../../src/store/probes/engine-check.js';
import type { Store } from '../../src/store/store.js';
import { ApiClient } from '../support/api-client.js';
import { describeStores, openSampleStore, SAMPLE_MAPPING, type StoreName } from '../support/each-store.js';
import { type JenaEndpoint, startJenaEndpoint } from '../support/jena.js';

/**
 * How each store the suites run on orders text, measured by hand (docs/operations.md): Oxigraph and
 * Virtuoso by code point; Jena ARQ, as in Fuseki, by UTF-16 code unit (Java's String.compareTo), in
 * ORDER BY and in FILTER alike, which differs from code point order only between characters
 * U+E000-U+FFFF and those past U+FFFF ("！" U+FF01 after "😀" U+1F600). The server owns that one
 * (sparql/text-key.ts): the check finds it, and finds the text keys written for it in code point order.
 */
const TEXT_ORDER: Record<StoreName, string> = {
  embedded: 'code point',
  virtuoso: 'code point',
  jena: 'UTF-16 code units',
};

/**
 * The start-up engine check (store/probes/engine-check.ts) against every store the suites run on:
 * instants, numbers and doubles as the server's promises need on all three; text as each engine
 * orders it, owned by the server where that is by UTF-16 code unit, so no warning; and the app
 * reports what it found in the log, at /health (with details) and in /metrics.
 */
describeStores('the start-up engine check', (storeName) => {
  let store: Store;
  let findings: EngineFinding[];
  let api: ApiClient;
  const logged: { level: number; msg: string }[] = [];
  beforeAll(async () => {
    const [mapping, opened] = await Promise.all([loadMapping(SAMPLE_MAPPING), openSampleStore(storeName)]);
    store = opened;
    findings = await checkEngine(store);
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => void logged.push(JSON.parse(line) as { level: number; msg: string }) },
    );
    const app = createApp({
      datasets: [{ name: 'sample', mapping, store, linkBase: '' }],
      logger,
      health: { details: true },
    });
    await app.locals.checkEngines(new AbortController().signal);
    api = await ApiClient.listen(app);
  });
  afterAll(async () => {
    await api?.close();
    await store?.close();
  });

  it('finds how the engine orders and compares text, and instants, numbers and doubles as promised', () => {
    const found = Object.fromEntries(findings.map((f) => [f.check, f.found]));
    expect(found['text-order']).toBe(TEXT_ORDER[storeName]);
    expect(found['text-compare']).toBe(TEXT_ORDER[storeName]);
    expect(found['date-order']).toBe('by value');
    expect(found['number-order']).toBe('by value');
    expect(found['double-text']).toMatch(/^exact/);
    // The server owns text order on an engine that orders by UTF-16 code unit (sparql/text-key.ts):
    // no warning on any of the three, and on Jena its findings say how it is owned.
    expect(findings.filter((f) => f.severity !== 'ok' && f.check !== 'decimal-text')).toEqual([]);
    const owned = findings.filter((f) => f.owned !== undefined).map((f) => f.check);
    expect(owned).toEqual(TEXT_ORDER[storeName] === 'code point' ? [] : ['text-order', 'text-compare']);
    expect(textOrderOf(findings)).toBe(TEXT_ORDER[storeName] === 'code point' ? undefined : 'UTF-16 code units');
  });

  it('logs what it found once, and warns exactly of the promises that do not hold', () => {
    expect(
      logged.filter((l) => l.msg.startsWith(`engine of dataset sample: text-order: ${TEXT_ORDER[storeName]}`)),
    ).toHaveLength(1);
    const warnings = logged.filter((l) => l.level >= 40).map((l) => l.msg);
    expect(warnings).toEqual(
      findings
        .filter((f) => f.severity === 'warning')
        .map((f) => `dataset sample: ${f.consequence} (engine check ${f.check}: ${f.found})`),
    );
    expect(warnings.filter((w) => w.includes('text'))).toEqual([]);
    const owned = logged.filter((l) => l.msg.includes(`text-order: ${TEXT_ORDER[storeName]} (owned: `));
    expect(owned).toHaveLength(TEXT_ORDER[storeName] === 'code point' ? 0 : 1);
  });

  it('shows the findings at /health with details and in /metrics', async () => {
    const health = await api.get('/health');
    const engine = health.body.meta.datasets[0].engine;
    expect(Object.keys(engine).sort()).toEqual(findings.map((f) => f.check).sort());
    for (const f of findings) expect(engine[f.check]).toEqual({ found: f.found, severity: f.severity });
    const metrics = await api.metrics();
    for (const f of findings)
      expect(metrics).toContain(`engine_check{dataset="sample",check="${f.check}",severity="${f.severity}"} 1`);
  });
});

/**
 * An engine that orders text by a locale's collation, as GraphDB or Stardog can be set up to: Jena
 * with every ORDER BY key wrapped in ARQ's collation function (test/support/jena/Collation.java).
 * Its FILTER still compares by UTF-16 code unit, so a cursor's FILTER and the sort disagree.
 */
describeStores('the engine check against an engine that orders text by a collation', () => {
  let jena: JenaEndpoint;
  let findings: EngineFinding[];
  beforeAll(async () => {
    const started = await startJenaEndpoint({ collation: 'en' });
    if ('skip' in started) throw new Error(started.skip);
    jena = started;
    const store = createHttpStore({ endpointUrl: jena.endpointUrl });
    findings = await checkEngine(store);
    await store.close();
  }, 120_000);
  afterAll(async () => jena?.stop());

  it("names the collation's order and warns that text does not sort by code point", () => {
    const text = findings.find((f) => f.check === 'text-order')!;
    expect(text.found).toMatch(/^another order \(.*\): a locale's collation\?$/);
    expect(text.severity).toBe('warning');
    expect(text.consequence).toContain('not by Unicode code point');
    // ORDER BY follows the collation; FILTER does not, which the check tells apart. The server
    // cannot own a collation: its queries stay as they are, and the warnings stand.
    expect(findings.find((f) => f.check === 'text-compare')!.found).toBe('UTF-16 code units');
    expect(findings.filter((f) => f.owned !== undefined)).toEqual([]);
    expect(textOrderOf(findings)).toBeUndefined();
    expect(findings.filter((f) => f.severity === 'warning').map((f) => f.check)).toEqual([
      'text-order',
      'text-compare',
    ]);
  });
}, ['jena']);
