/**
 * Which graphs `serve` queries, and the start-up warning for types without members. `serve --data`
 * serves the union of every graph of its files (the default graph of the triples and each named
 * graph of the N-Quads and TriG); `--graph IRI` (or a dataset's `graph` key) that named graph
 * alone, and a graph none of the files holds stops start-up with exit code 2. Against an
 * endpoint, `load --graph G` then `serve --graph G` serves the same union. Every server here is
 * `main(argv, io)` in process, over real HTTP; its pino log lines are read from the captured io.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Parser, type Quad } from 'n3';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadFiles } from '../../src/load/load-files.js';
import { RDF_TYPE } from '../../src/rdf/vocabulary.js';
import { captureIo, listeningPort } from '../support/cli-io.js';
import { closedPort } from '../support/closed-port.js';
import { describeStores, ENDPOINT_STORE_NAMES, endpointOf } from '../support/each-store.js';

const MAPPING = 'test/fixtures/graphs/mapping.yaml';
const NQ = 'test/fixtures/graphs/people.nq';
const TRIG = 'test/fixtures/graphs/places.trig';
const EX = 'http://example.org/graphs/';
const GRAPH_A = `${EX}graph/a`;
const GRAPH_B = `${EX}graph/b`;
/** The collections of the mapping, and the class and IRI prefix of their members (notes: by ex:code). */
const TYPES = { people: 'Person', places: 'Place', notes: 'Note', ghosts: 'Ghost' } as const;
type TypeName = keyof typeof TYPES;

const dir = await mkdtemp(join(tmpdir(), 'data-graphs-test-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The ids of every member of each type in `files`, from their quads in `graphs` (every graph when absent): the oracle. */
function expectedIds(files: readonly string[], graphs?: readonly string[]): Record<TypeName, string[]> {
  const quads = files.flatMap(
    (file) => new Parser({ baseIRI: pathToFileURL(file).href }).parse(readFileSync(file, 'utf8')) as Quad[],
  );
  const kept = quads.filter((q) => graphs === undefined || graphs.includes(q.graph.value));
  const ids = (type: TypeName) => {
    const members = new Set(
      kept
        .filter((q) => q.predicate.value === RDF_TYPE && q.object.value === `${EX}${TYPES[type]}`)
        .map((q) => q.subject.value),
    );
    // people and places: the id is the IRI's last segment; notes: their ex:code.
    const id = (iri: string) =>
      type === 'notes'
        ? kept.find((q) => q.subject.value === iri && q.predicate.value === `${EX}code`)?.object.value
        : iri.slice(iri.lastIndexOf('/') + 1);
    return [...members].map(id).filter((x): x is string => x !== undefined);
  };
  return {
    people: ids('people').sort(),
    places: ids('places').sort(),
    notes: ids('notes').sort(),
    ghosts: ids('ghosts').sort(),
  };
}

interface Served {
  readonly base: string;
  readonly io: ReturnType<typeof captureIo>;
  /** The ids of a collection (one page holds them all), and its meta.count. */
  ids(path: string): Promise<{ ids: string[]; count: number }>;
  /** The messages of the log lines at level warn, once the empty-types check has spoken. */
  warnings(): Promise<string[]>;
  stop(): Promise<number>;
}

/** Starts `serve` in process with `args` (and --port 0); resolves once it listens. */
async function serve(args: readonly string[]): Promise<Served> {
  const stopper = new AbortController();
  const io = captureIo({ LOG_LEVEL: 'info' }, stopper.signal);
  const exited = main(['serve', ...args, '--port', '0'], io);
  let port: number;
  try {
    port = await listeningPort(
      () => io.out,
      exited,
      () => io.err.join('\n'),
    );
  } catch (error) {
    stopper.abort();
    throw error;
  }
  const base = `http://127.0.0.1:${port}`;
  const logged = () => io.out.map((l) => JSON.parse(l) as { level: number; msg: string });
  const checked = (m: string) =>
    / has no member |could not check that every type has members|^no type of dataset /.test(m);
  return {
    base,
    io,
    async ids(path) {
      const response = await fetch(`${base}${path}?page[size]=100`, {
        headers: { Accept: 'application/vnd.api+json' },
      });
      expect(response.status, path).toBe(200);
      const body = (await response.json()) as { data: { id: string }[]; meta: { count: number } };
      return { ids: body.data.map((r) => r.id).sort(), count: body.meta.count };
    },
    async warnings() {
      // The check is not awaited by start-up; its warnings come a moment after `listening on`.
      for (let i = 0; i < 200 && !logged().some((l) => checked(l.msg)); i++)
        await new Promise((done) => setTimeout(done, 25));
      return logged()
        .filter((l) => l.level === 40 && checked(l.msg))
        .map((l) => l.msg);
    },
    async stop() {
      stopper.abort();
      return exited;
    },
  };
}

/** The union of the files' graphs, which the store reads without --graph. */
const UNION = "the union of the files' graphs";
const ghostWarning = (dataset: string, where = UNION) =>
  `type "ghosts" has no member (no resource of class <${EX}Ghost> with an id of its strategy: a <${EX}code> value) in dataset ${dataset}, ${where}`;
const notesWarning = (dataset: string, where = UNION) =>
  `type "notes" has no member (no resource of class <${EX}Note> with an id of its strategy: a <${EX}code> value) in dataset ${dataset}, ${where}`;

/** Every collection of the mapping, as served: ids and count. */
async function collections(served: Served, prefix = ''): Promise<Record<TypeName, string[]>> {
  const result = {} as Record<TypeName, string[]>;
  for (const type of Object.keys(TYPES) as TypeName[]) {
    const { ids, count } = await served.ids(`${prefix}/${type}`);
    expect(count, type).toBe(ids.length);
    result[type] = ids;
  }
  return result;
}

describe('serve --data: the union of every graph of the files', () => {
  it('the oracle sees what the fixtures were written for: people and places in the default graph, a and b', () => {
    expect(expectedIds([NQ, TRIG])).toEqual({
      people: ['a1', 'a3', 'b1', 'd1'],
      places: ['a2', 'b2', 'd2'],
      notes: ['n1'],
      ghosts: [],
    });
    expect(expectedIds([NQ, TRIG], [GRAPH_A])).toMatchObject({ people: ['a1', 'a3'], places: ['a2'], notes: [] });
  });

  it.each([
    { name: 'the .nq alone', files: [NQ] },
    { name: 'the .trig alone', files: [TRIG] },
    { name: 'both files', files: [NQ, TRIG] },
  ])('$name: every collection is the union of the default graph and the named graphs', async ({ files }) => {
    const served = await serve(['--mapping', MAPPING, ...files.flatMap((f) => ['--data', f])]);
    try {
      const expected = expectedIds(files);
      expect(expected.people.length).toBeGreaterThan(0);
      expect(await collections(served)).toEqual(expected);
      const started = served.io.out.map((l) => JSON.parse(l) as { msg: string }).map((l) => l.msg);
      expect(started.some((m) => m.endsWith('serving the union of all their graphs'))).toBe(true);
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });

  it('a triple in two named graphs counts once: one member, one value', async () => {
    const served = await serve(['--mapping', MAPPING, '--data', NQ, '--data', TRIG]);
    try {
      const response = await fetch(`${served.base}/people/a1`, { headers: { Accept: 'application/vnd.api+json' } });
      expect(((await response.json()) as { data: { attributes: unknown } }).data.attributes).toEqual({ name: 'Ada' });
      expect((await served.ids('/people')).ids.filter((id) => id === 'a1')).toHaveLength(1);
    } finally {
      await served.stop();
    }
  });

  it('warns at start-up for the type without members (ghosts), and for no other', async () => {
    const served = await serve(['--mapping', MAPPING, '--data', NQ, '--data', TRIG]);
    try {
      expect(await served.warnings()).toEqual([ghostWarning('default')]);
    } finally {
      await served.stop();
    }
  });
});

describe('serve --data --graph: that named graph alone', () => {
  it.each([GRAPH_A, GRAPH_B])('--graph %s: only its members', async (graph) => {
    const served = await serve(['--mapping', MAPPING, '--data', NQ, '--data', TRIG, '--graph', graph]);
    try {
      const expected = expectedIds([NQ, TRIG], [graph]);
      expect(await collections(served)).toEqual(expected);
      expect(expected.notes).toEqual([]);
      // notes live in the default graph only: in a named graph that type is empty too.
      expect(await served.warnings()).toEqual([
        notesWarning('default', `graph <${graph}>`),
        ghostWarning('default', `graph <${graph}>`),
      ]);
    } finally {
      await served.stop();
    }
  });

  it('a graph that none of the files holds: exit 2 and a message naming it and the graphs there are', async () => {
    const io = captureIo();
    const missing = `${EX}graph/none`;
    const code = await main(['serve', '--mapping', MAPPING, '--data', NQ, '--data', TRIG, '--graph', missing], io);
    expect(code).toBe(2);
    expect(io.err.join('\n')).toBe(
      `dataset default: graph <${missing}> has no triple in the data files (${resolve(NQ)}, ${resolve(TRIG)}); their named graphs: <${GRAPH_A}>, <${GRAPH_B}>`,
    );
  });

  it('a --graph that is not an IRI: exit 2 before anything loads', async () => {
    const io = captureIo();
    expect(await main(['serve', '--mapping', MAPPING, '--data', NQ, '--graph', 'graph a'], io)).toBe(2);
    expect(io.err.join('\n')).toBe("--graph: expected an absolute IRI (http://example.org/graph), got 'graph a'");
  });

  it('a config file: each dataset its own graph (`graph` beside `data`), or the union without one', async () => {
    const config = join(dir, 'graphs.yaml');
    const dataset = (graph?: string) =>
      [
        `    mapping: ${resolve(MAPPING)}`,
        `    data: [${resolve(NQ)}, ${resolve(TRIG)}]`,
        `    workers: 1`,
        ...(graph ? [`    graph: ${graph}`] : []),
      ].join('\n');
    await writeFile(config, `port: 0\ndatasets:\n  all:\n${dataset()}\n  b:\n${dataset(GRAPH_B)}\n`);
    const served = await serve(['--config', config]);
    try {
      expect(await collections(served)).toEqual(expectedIds([NQ, TRIG]));
      expect(await collections(served, '/api/b')).toEqual(expectedIds([NQ, TRIG], [GRAPH_B]));
      expect((await served.warnings()).sort()).toEqual(
        [ghostWarning('all'), ghostWarning('b', `graph <${GRAPH_B}>`), notesWarning('b', `graph <${GRAPH_B}>`)].sort(),
      );
    } finally {
      await served.stop();
    }
  });
});

describeStores(
  'serve --endpoint',
  (storeName) => {
    it('load --graph G then serve --graph G: the same union as the embedded store, and the same warning', async () => {
      const endpoint = endpointOf(storeName);
      const graph = `http://example.org/sparql-jsonapi-test/${randomUUID()}`;
      await loadFiles({ endpointUrl: endpoint.endpointUrl, graph, files: [NQ, TRIG] });
      const served = await serve(['--mapping', MAPPING, '--endpoint', endpoint.endpointUrl, '--graph', graph]);
      try {
        expect(await collections(served)).toEqual(expectedIds([NQ, TRIG]));
        expect(await served.warnings()).toEqual([ghostWarning('default', `graph <${graph}>`)]);
      } finally {
        await served.stop();
      }
    });

    it('a --graph with none of the data: one warning, naming the graph, not one per type', async () => {
      const endpoint = endpointOf(storeName);
      const graph = `http://example.org/sparql-jsonapi-test/empty-${randomUUID()}`;
      const served = await serve(['--mapping', MAPPING, '--endpoint', endpoint.endpointUrl, '--graph', graph]);
      try {
        const warnings = await served.warnings();
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toMatch(
          new RegExp(
            `^no type of dataset default has a member in graph <${graph}>: is that the graph the data is in\\? \\(types: `,
          ),
        );
        for (const type of Object.keys(TYPES)) expect(warnings[0]).toContain(type);
      } finally {
        await served.stop();
      }
    });
  },
  ENDPOINT_STORE_NAMES,
);

describe('serve --endpoint: the empty-types check', () => {
  it('a store that is down: the server starts all the same and warns that the check could not run', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/sparql`;
    const served = await serve(['--mapping', MAPPING, '--endpoint', url]);
    try {
      const warnings = await served.warnings();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^could not check that every type has members in dataset default: .*ECONNREFUSED/);
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });
});
