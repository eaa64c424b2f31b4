import { cpuRows, keepAliveCaption, keepAliveRows, peerRan } from './keep-alive-report.js';
import type { ConcurrentResult, SkippedRun } from './measure.js';
import { type Overhead, overhead } from './overhead.js';
import { compareWithPeer, MU_CL_RESOURCES } from './reference.js';
import type { MachineInfo, RunResult, StoreResult } from './results.js';
import { evaluateTargets } from './targets.js';

/** A markdown table; `|` inside cells is escaped so a reason can't break the row. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** `value` with `digits` decimals, or '–' for a figure not measured (NaN). */
export const fixed = (value: number, digits = 1): string => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const rate = (value: number) => (Number.isFinite(value) ? String(Math.round(value)) : '–');
const failedNote = (c: ConcurrentResult) =>
  c.failed
    ? ` ⚠ ${c.failed} failed${
        c.failures
          ? ` (${Object.entries(c.failures)
              .map(([what, n]) => `${what}: ${n}`)
              .join(', ')})`
          : ''
      }`
    : '';
const concurrent = (c: ConcurrentResult | SkippedRun | undefined) =>
  c === undefined
    ? '–'
    : 'skipped' in c
      ? 'skipped: too slow'
      : c.completed === 0
        ? `none completed${failedNote(c)}`
        : `${rate(c.requestsPerSecond)} (${fixed(c.p50)}/${fixed(c.p99)})${failedNote(c)}`;
const MB = 2 ** 20;
/** Server − floor, with its budget and ✗ over it where the shape has one. */
const addedCell = ({ addedMs, budgetMs }: Overhead) =>
  budgetMs === undefined
    ? fixed(addedMs, 2)
    : `${fixed(addedMs, 2)} (≤ ${fixed(budgetMs, 2)})${addedMs > budgetMs ? ' ✗' : ''}`;

/**
 * What the load generator spent per single-resource request at each connection count: CPU taken
 * from the cores the server and the store share, which a front-end's clients don't take.
 */
function clientCpu(result: StoreResult): string | undefined {
  const single = result.shapes.find((s) => s.key === 'single');
  if (single?.status !== 'ok') return undefined;
  const runs = single.concurrent.flatMap((c) =>
    'clientCpuMs' in c && c.clientCpuMs !== undefined ? [`${fixed(c.clientCpuMs, 3)} ms at ${c.connections} conn`] : [],
  );
  return runs.length === 0 ? undefined : runs.join(', ');
}

/** One line about the machine and the date, for the table and the chart. */
export function machineLine(machine: MachineInfo, date: string): string {
  return `${date.slice(0, 16).replace('T', ' ')} UTC · ${machineSpec(machine)} · ${machine.commit}`;
}

/**
 * The machine alone (no date, no commit), for a caption over runs of different days and commits.
 *
 * @example machineSpec(run.machine) // 'AMD EPYC, 2 cores, 24 GB · Node v20.20.2 · Virtuoso 7.2.5.3229-pthreads'
 */
export function machineSpec(machine: MachineInfo): string {
  return `${machine.cpu}, ${machine.cores} cores, ${Math.round(machine.memoryBytes / 2 ** 30)} GB · Node ${machine.node}${machine.virtuoso ? ` · Virtuoso ${machine.virtuoso}` : ''}`;
}

/**
 * The per-shape figures of one store at one size as a markdown table: queries, sequential
 * latency of server and floor, what the server adds (server ÷ (floor + bare hop), and server −
 * floor in ms against its budget where a shape has one: `overhead.ts`), store time, and
 * throughput under load.
 *
 * @example console.log(storeTable(result, [10, 50]))
 */
export function storeTable(result: StoreResult, connections: readonly number[]): string {
  const header = [
    'shape',
    'queries (budget)',
    'server p50/p95 ms',
    'floor p50/p95 ms',
    'server ÷ (floor + hop)',
    'added ms (budget)',
    'store ms p50',
    ...connections.map((c) => `${c} conn req/s (p50/p99 ms)`),
    `floor ${connections[0]} conn req/s`,
  ];
  const rows = result.shapes.map((shape) => {
    if (shape.status !== 'ok') return [shape.label, `n/a: ${shape.reason}`, ...header.slice(2).map(() => '')];
    const { sequential: seq } = shape;
    const queries =
      seq.queries.min === seq.queries.max ? String(seq.queries.max) : `${seq.queries.min}–${seq.queries.max}`;
    const added = overhead(shape, result.hop);
    return [
      shape.label,
      `${queries} (≤ ${shape.queryBudget})${seq.queries.max > shape.queryBudget ? ' ✗' : ''}`,
      `${fixed(seq.server.p50)} / ${fixed(seq.server.p95)}`,
      `${fixed(seq.floor.p50)} / ${fixed(seq.floor.p95)}`,
      added === undefined ? '– (no query)' : added.hopRatio === undefined ? '– (no hop)' : fixed(added.hopRatio, 2),
      added === undefined ? '–' : addedCell(added),
      fixed(seq.storeMs.p50),
      ...connections.map((c) => concurrent(shape.concurrent.find((r) => r.connections === c))),
      'skipped' in shape.floorConcurrent
        ? 'skipped: too slow'
        : `${rate(shape.floorConcurrent.requestsPerSecond)}${failedNote(shape.floorConcurrent)}`,
    ];
  });
  return markdownTable(header, rows);
}

/**
 * The run beside mu-cl-resources' figures (`reference.ts`), or undefined when the run is not on a
 * store and size they were measured on (Virtuoso at 100k and 1M triples).
 *
 * @example peerTable(result) // | shape | this server req/s (p50 ms, queries) | mu-cl-resources … | this ÷ peer |
 */
export function peerTable(result: StoreResult): string | undefined {
  const rows = compareWithPeer(result).map((c) => [
    c.label,
    `${c.ours.requestsPerSecond === undefined ? '–' : rate(c.ours.requestsPerSecond)} (${fixed(c.ours.p50)}, ${c.ours.queries})`,
    `${c.peer.requestsPerSecond} (${c.peer.p50 === undefined ? '–' : fixed(c.peer.p50)}, ${c.peer.queries})`,
    c.throughputRatio === undefined ? '–' : fixed(c.throughputRatio, 2),
  ]);
  if (rows.length === 0) return undefined;
  const at = '10 conn req/s (p50 ms, queries)';
  const runs = MU_CL_RESOURCES.runs.filter(
    (r) => r.store === result.store && r.size === result.size && r.client === 'autocannon',
  );
  return [
    `Beside ${MU_CL_RESOURCES.name}, the faster of its runs per shape (${runs.map((r) => r.measured).join('; ')}):`,
    '',
    markdownTable(['shape', `this server ${at}`, `${MU_CL_RESOURCES.name} ${at}`, 'this ÷ peer'], rows),
  ].join('\n');
}

/** The whole report of one run (one size, every store) in markdown, as printed on stdout. */
export function renderRun(run: RunResult): string {
  const parts = [
    `## ${run.size} triples${run.smoke ? ' (smoke: too short to quote)' : ''}`,
    '',
    machineLine(run.machine, run.date),
    '',
  ];
  const { start, end } = run.loadAverage;
  const busy = Math.max(start, end) > run.machine.cores;
  parts.push(
    `Load average (1 min): ${start.toFixed(1)} at the start, ${end.toFixed(1)} at the end${busy ? ` — **above the ${run.machine.cores} cores: other processes shared the CPUs, so these figures are noisy**` : ''}.`,
    '',
  );
  if (run.settings.windowCache !== undefined) {
    const { windowCache } = run.settings;
    parts.push(
      `Window cache: ${typeof windowCache === 'number' ? `--window-cache ${windowCache}` : "the server's default per store"}.`,
      '',
    );
  }
  for (const { store, reason } of run.skipped) parts.push(`**${store}: SKIPPED**: ${reason}`, '');
  for (const result of run.stores) {
    const loader =
      result.store !== 'virtuoso' ? 'load' : result.loader === 'load' ? '`sparql-jsonapi load`' : 'bulk load';
    const load = `${loader} ${fixed(result.loadMs / 1000, 1)} s`;
    const memory = `server RSS ${Math.round(result.memory.afterLoad / MB)} MB after load, peak ${Math.round(result.memory.peak / MB)} MB`;
    const windows = result.windowCache === undefined ? '' : ` · window cache ${result.windowCache}`;
    parts.push(
      `### ${result.store}: ${result.triples.toLocaleString('en')} triples`,
      '',
      `${result.description} · ${load} · ${memory}${windows}`,
      '',
    );
    parts.push(storeTable(result, run.settings.connections), '');
    const keepAlive = keepAliveRows(result);
    if (keepAlive.rows.length > 0) {
      const cpu = cpuRows(result);
      parts.push(
        keepAliveCaption(result, run.settings.keepAlive),
        '',
        markdownTable(keepAlive.header, keepAlive.rows),
        '',
        ...keepAlive.notes.flatMap((note) => [note, '']),
        'CPU per request by process over each closed loop (µs, from /proc/<pid>/stat; client: the bench itself):',
        '',
        markdownTable(cpu.header, cpu.rows),
        '',
      );
    }
    // The dated autocannon figures, beside this run's autocannon figures, only when no peer ran.
    const peer = peerRan(result) ? undefined : peerTable(result);
    if (peer) parts.push(peer, '');
    const extras = [
      [
        'slow sort beside single resource',
        'na' in result.interference
          ? `n/a: ${result.interference.na}`
          : `p50 ${fixed(result.interference.alone.p50)} → ${fixed(result.interference.withSlow.p50)} ms, p95 ${fixed(result.interference.alone.p95)} → ${fixed(result.interference.withSlow.p95)} ms (${result.interference.slowCompleted} sorts completed meanwhile)`,
      ],
      [
        'repeated identical request, cache on',
        'na' in result.cache
          ? `n/a: ${result.cache.na}`
          : `${rate(result.cache.requestsPerSecond)} req/s at ${result.cache.connections} conn (p50 ${fixed(result.cache.p50)} ms, p99 ${fixed(result.cache.p99)} ms)`,
      ],
    ];
    if (result.hop)
      extras.push([
        'HTTP hop alone: a bare node:http server, same client',
        `p50 ${fixed(result.hop.p50)} ms, p95 ${fixed(result.hop.p95)} ms: the least any server adds to the floor's p50`,
      ]);
    const client = clientCpu(result);
    if (client) extras.push(['the load generator’s CPU per request (single resource)', client]);
    parts.push(markdownTable(['figure', 'value'], extras), '');
    if (result.compression)
      parts.push(
        'The 100-item page by Accept-Encoding (no response cache: every response compressed anew):',
        '',
        markdownTable(
          ['coding', 'bytes on the wire', 'p50 (ms)', 'req/s'],
          result.compression.map((c) => [
            c.coding,
            c.bytes.toLocaleString('en'),
            fixed(c.p50),
            `${rate(c.requestsPerSecond)} at ${c.connections} conn`,
          ]),
        ),
        '',
      );
    if (result.compressionCost)
      parts.push(
        'Compression CPU per response (the server’s settings, median, one core):',
        '',
        markdownTable(
          ['shape', 'bytes', 'gzip bytes', 'gzip ms', 'br bytes', 'br ms'],
          result.compressionCost.map((c) => [
            c.shape,
            c.bytes.toLocaleString('en'),
            c.gzip.bytes.toLocaleString('en'),
            fixed(c.gzip.ms, 2),
            c.br.bytes.toLocaleString('en'),
            fixed(c.br.ms, 2),
          ]),
        ),
        '',
      );
    parts.push(
      markdownTable(
        ['target', 'scope', 'measured', 'status'],
        evaluateTargets(result).map((t) => [t.target, t.scope, t.figure, t.status]),
      ),
      '',
    );
  }
  return parts.join('\n');
}
