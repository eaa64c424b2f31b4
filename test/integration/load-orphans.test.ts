/**
 * What a `load` killed with SIGKILL leaves (its staging graph: it cannot drop it), and that the
 * next load of the same target drops it, while a load still running keeps its own. A real
 * `load` process on Virtuoso and on Jena, each killed mid-way.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeDataset } from '../../scripts/generate.js';
import { runLoad } from '../../src/cli/load-command.js';
import { STAGING_PREFIX, stagingOwner } from '../../src/load/staging.js';
import { captureIo } from '../support/cli-io.js';
import { startJenaEndpoint } from '../support/jena.js';
import { endpointOrSkip, startTestEndpoint, type TestEndpoint } from '../support/virtuoso.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const ENGINES = [
  ['Virtuoso', await startTestEndpoint()],
  ['Jena', await startJenaEndpoint()],
] as const;

async function select(e: TestEndpoint, query: string): Promise<Record<string, { value: string }>[]> {
  const response = await fetch(e.endpointUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+json' },
    body: new URLSearchParams({ query }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { results: { bindings: Record<string, { value: string }>[] } }).results.bindings;
}

/** Each staging graph with its triples. */
async function stagingGraphs(e: TestEndpoint): Promise<Map<string, number>> {
  const rows = await select(
    e,
    `SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${STAGING_PREFIX}")) } GROUP BY ?g`,
  );
  return new Map(rows.map((r) => [r.g!.value, Number(r.n!.value)]));
}

async function count(e: TestEndpoint, graph: string): Promise<number> {
  return Number((await select(e, `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${graph}> { ?s ?p ?o } }`))[0]!.n!.value);
}

/** Resolves once the process's staging graph holds at least `triples`; its IRI. */
async function stagingOf(e: TestEndpoint, pid: number, triples: number): Promise<string> {
  for (const deadline = Date.now() + 150_000; Date.now() < deadline; await delay(100))
    for (const [iri, n] of await stagingGraphs(e)) if (stagingOwner(iri)?.pid === pid && n >= triples) return iri;
  throw new Error(`no staging graph of pid ${pid} with ${triples} triples within 150 s`);
}

for (const [engine, started] of ENGINES) {
  const running = endpointOrSkip(started, `staging orphans on ${engine}`);
  describe.skipIf(!running)(`load: staging graphs left by a killed load, on ${engine}`, () => {
    const e = running!;
    let file: string;
    let triples: number;
    beforeAll(async () => {
      file = join(await mkdtemp(join(tmpdir(), 'load-orphans-')), 'generated.nt');
      triples = await writeDataset({ activities: 800, seed: 3 }, file);
    });
    afterAll(() => e?.stop());

    test('a SIGKILLed load leaves its staging graph; the next load of the target drops it, logged, and loads', async () => {
      const graph = `${e.graph}/orphans`;
      const { child, exited } = startLoadWith(e, graph, file);
      const left = await stagingOf(e, child.pid!, 300);
      child.kill('SIGKILL');
      await exited;
      expect((await stagingGraphs(e)).get(left)).toBeGreaterThanOrEqual(300);
      expect(stagingOwner(left)).toMatchObject({ target: graph, pid: child.pid });

      const io = captureIo();
      expect(await runLoad(['--endpoint', e.endpointUrl, '--graph', graph, file], io), io.err.join('\n')).toBe(0);
      expect(io.err).toContain(`dropped the staging graph <${left}>, left by an earlier load of <${graph}>`);
      expect([...(await stagingGraphs(e)).keys()]).toEqual([]);
      expect(await count(e, graph)).toBeGreaterThan(0);
      expect(io.out.at(-1)).toContain(`which holds ${await count(e, graph)}:`);
      expect(triples).toBeGreaterThan(0);
    }, 400_000);

    test("a concurrent load's staging graph is left alone: both loads complete", async () => {
      const graph = `${e.graph}/concurrent`;
      const { child, exited } = startLoadWith(e, graph, file);
      const live = await stagingOf(e, child.pid!, 200);
      const io = captureIo();
      expect(await runLoad(['--endpoint', e.endpointUrl, '--graph', graph, file], io), io.err.join('\n')).toBe(0);
      expect(io.err).toContain(
        `staging graph <${live}> left alone: in use by a load still running (pid ${child.pid}); drop it with load --clean-staging`,
      );
      // The child may have ended while this load ran (on a slow machine, it did): its exit is
      // listened for from its start.
      const [code] = await exited;
      expect(code).toBe(0);
      expect([...(await stagingGraphs(e)).keys()]).toEqual([]);
    }, 400_000);
  });
}

/** `sparql-jsonapi load` in a child process, in small batches so that it takes a while; its exit code and signal. */
function startLoadWith(
  e: TestEndpoint,
  graph: string,
  file: string,
): { child: ChildProcess; exited: Promise<unknown[]> } {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli/bin.ts',
      'load',
      '--endpoint',
      e.endpointUrl,
      '--graph',
      graph,
      '--batch-size',
      '100',
      file,
    ],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return { child, exited: once(child, 'exit') };
}
