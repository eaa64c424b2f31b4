import { decadeLabel, escapeXml } from './chart.js';
import type { StoreKind } from './options.js';
import { machineSpec } from './report.js';
import type { RunResult } from './results.js';

export interface ScalingChartOptions {
  /** Whose figures to draw when a run holds several stores; default Virtuoso, the one store that runs 10M. */
  readonly store?: StoreKind;
  /** Draw each shape's floor (the same SPARQL straight to the store) as a dashed line; default true. */
  readonly floor?: boolean;
}

// Categorical colours dark enough on white for a 2 px line; one per shape, in the runs' shape order.
const COLORS = [
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#a6a60f',
  '#17becf',
  '#393b79',
  '#843c39',
];
const WIDTH = 1000;
const LEFT = 72;
const TOP = 84;
const PLOT_WIDTH = 540;
const PLOT_HEIGHT = 420;
const LEGEND = LEFT + PLOT_WIDTH + 36;

const sizeLabel = (size: string) => size.replace('m', 'M');

/** `1e5` → `100k`, `1e6` → `1M`, `1e7` → `10M`: how the bench names its sizes. */
function triplesLabel(decade: number): string {
  const exponent = Math.round(Math.log10(decade));
  if (exponent >= 6) return `${10 ** (exponent - 6)}M`;
  if (exponent >= 3) return `${10 ** (exponent - 3)}k`;
  return String(10 ** exponent);
}

/** The powers of ten from `lo` to `hi` (both ends included when they are powers of ten). */
function decadesWithin(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let k = Math.ceil(Math.log10(lo) - 1e-9); k <= Math.floor(Math.log10(hi) + 1e-9); k++) out.push(10 ** k);
  return out;
}

/** Maps `value` in [lo, hi] onto [from, to] by its logarithm. */
const logScale = (lo: number, hi: number, from: number, to: number) => (value: number) =>
  from + ((Math.log10(value) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * (to - from);

/** A p50 the chart can place: a log axis has no room for 0, and a missing figure stays missing. */
const drawable = (value: number | undefined) =>
  value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;

/**
 * A line chart (SVG) of how each request shape's sequential p50 grows with the dataset: x the
 * store's triples, y the p50 in ms, both on log scales with gridlines at every power of ten, one
 * solid line per shape for the server and a dashed one in the same colour for its floor. A shape
 * not measured at a size (absent, or `n/a`) leaves a gap in its line rather than a point made up.
 * The legend lists the shapes from the slowest at the largest size down (the order the lines end
 * in), each with its growth between the two largest sizes; the caption gives every run's date,
 * machine, commit and load average, since the runs are seldom measured in the same conditions.
 *
 * @example
 * const runs = ['latest-100k.json', '2026-11-27-1m.json', '2026-11-27-10m.json']
 *   .map((f) => JSON.parse(readFileSync(`bench/results/${f}`, 'utf8')) as RunResult);
 * writeFileSync('bench/results/scaling.svg', renderScalingChart(runs));
 */
export function renderScalingChart(runs: readonly RunResult[], options: ScalingChartOptions = {}): string {
  const store = options.store ?? 'virtuoso';
  const columns = runs
    .map((run) => {
      const result = run.stores.find((s) => s.store === store);
      if (!result) throw new Error(`the ${run.size} run of ${run.date} has no ${store} figures`);
      return { run, result };
    })
    .sort((a, b) => a.result.triples - b.result.triples);
  for (const [i, column] of columns.entries()) {
    // Two runs of one size would stack two points on one x: which one the line goes through would be arbitrary.
    if (i > 0 && column.result.triples === columns[i - 1]!.result.triples)
      throw new Error(`two runs at ${column.result.triples} triples (${column.run.size}): give one run per size`);
  }

  const shapes = new Map<string, string>();
  for (const { result } of columns) for (const s of result.shapes) if (!shapes.has(s.key)) shapes.set(s.key, s.label);
  const series = [...shapes].map(([key, label], i) => {
    const p50s = (which: 'server' | 'floor') =>
      columns.map(({ result }) => {
        const shape = result.shapes.find((s) => s.key === key);
        return shape?.status === 'ok' ? drawable(shape.sequential[which].p50) : undefined;
      });
    return { key, label, color: COLORS[i % COLORS.length]!, server: p50s('server'), floor: p50s('floor') };
  });

  const drawFloor = options.floor ?? true;
  const values = series.flatMap((s) => [...s.server, ...(drawFloor ? s.floor : [])]).filter((v) => v !== undefined);
  const yLo = 10 ** Math.floor(Math.log10(Math.min(...values, 1)));
  const yHi = 10 ** Math.max(Math.ceil(Math.log10(Math.max(...values, 10))), Math.log10(yLo) + 1);
  const triples = columns.map((c) => c.result.triples);
  // Half a decade's margin at each end keeps the first and last points off the frame.
  const xLo = (triples.length > 0 ? Math.min(...triples) : 1e5) / 3;
  const xHi = (triples.length > 0 ? Math.max(...triples) : 1e5) * 3;
  const x = logScale(xLo, xHi, LEFT, LEFT + PLOT_WIDTH);
  const y = logScale(yLo, yHi, TOP + PLOT_HEIGHT, TOP);
  const bottom = TOP + PLOT_HEIGHT;

  // The caption: when and in what conditions each point was measured (a load above the cores
  // means other work shared the CPUs, which moves small times by more than the size does).
  const caption = columns.map(({ run, result }) => {
    const { start, end } = run.loadAverage;
    const shared = Math.max(start, end) > run.machine.cores ? ' (above the cores: shared CPUs, noisy)' : '';
    return `${sizeLabel(run.size)}, ${result.triples.toLocaleString('en-US')} triples${run.smoke ? ', smoke run' : ''}: ${run.date.slice(0, 16).replace('T', ' ')} UTC, commit ${run.machine.commit}, load average ${start.toFixed(1)} → ${end.toFixed(1)}${shared}`;
  });
  // The machine once (its line without the date and commit, which differ per run), unless the runs differ.
  const machines = new Set(columns.map(({ run }) => machineSpec(run.machine)));
  caption.push(...machines);

  const out: string[] = [];
  const height = bottom + 70 + caption.length * 16;
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${LEFT}" y="22" font-size="15" font-weight="600">${escapeXml(`sparql-jsonapi on ${store}: p50 per request shape against the dataset's size (both axes log)`)}</text>`,
    `<line x1="${LEFT}" x2="${LEFT + 28}" y1="42" y2="42" stroke="#333" stroke-width="2"/><circle cx="${LEFT + 14}" cy="42" r="3" fill="#333"/>`,
    `<text x="${LEFT + 34}" y="46" fill="#555">server: the HTTP request, end to end, sequential</text>`,
    ...(drawFloor
      ? [
          `<line x1="${LEFT + 330}" x2="${LEFT + 358}" y1="42" y2="42" stroke="#333" stroke-width="1.5" stroke-dasharray="5 3" opacity="0.6"/>`,
          `<text x="${LEFT + 364}" y="46" fill="#555">floor: the same SPARQL straight to the store</text>`,
        ]
      : []),
  );

  for (const decade of decadesWithin(yLo, yHi)) {
    const at = y(decade).toFixed(1);
    out.push(
      `<line x1="${LEFT}" x2="${LEFT + PLOT_WIDTH}" y1="${at}" y2="${at}" stroke="#ddd"/>`,
      `<text x="${LEFT - 6}" y="${(Number(at) + 4).toFixed(1)}" text-anchor="end" fill="#555" data-tick="y">${decadeLabel(decade)}</text>`,
    );
  }
  for (const decade of decadesWithin(xLo, xHi)) {
    const at = x(decade).toFixed(1);
    out.push(
      `<line x1="${at}" x2="${at}" y1="${TOP}" y2="${bottom}" stroke="#ddd"/>`,
      `<text x="${at}" y="${bottom + 16}" text-anchor="middle" fill="#555" data-tick="x">${triplesLabel(decade)}</text>`,
    );
  }
  out.push(
    `<rect x="${LEFT}" y="${TOP}" width="${PLOT_WIDTH}" height="${PLOT_HEIGHT}" fill="none" stroke="#333"/>`,
    `<text x="${LEFT + PLOT_WIDTH / 2}" y="${bottom + 36}" text-anchor="middle">triples in the store (log scale)</text>`,
    `<text transform="translate(${LEFT - 48} ${TOP + PLOT_HEIGHT / 2}) rotate(-90)" text-anchor="middle">p50, ms (log scale)</text>`,
  );

  // Floors first, so the server's solid lines and points are drawn over them.
  const lines = (which: 'server' | 'floor') =>
    series.map((s) => {
      let d = '';
      let drawing = false;
      s[which].forEach((value, i) => {
        // A size without a figure breaks the line: the next point starts a new stroke (`M`).
        if (value === undefined) drawing = false;
        else {
          d += `${d === '' ? '' : ' '}${drawing ? 'L' : 'M'}${x(triples[i]!).toFixed(1)},${y(value).toFixed(1)}`;
          drawing = true;
        }
      });
      const style =
        which === 'server' ? `stroke-width="2"` : `stroke-width="1.5" stroke-dasharray="5 3" stroke-opacity="0.6"`;
      return `<path data-shape="${escapeXml(s.key)}" data-series="${which}" d="${d}" fill="none" stroke="${s.color}" ${style}/>`;
    });
  if (drawFloor) out.push(...lines('floor'));
  out.push(...lines('server'));
  for (const s of series) {
    s.server.forEach((value, i) => {
      if (value === undefined) return;
      const { run, result } = columns[i]!;
      const floor = s.floor[i];
      const title = `${s.label}, ${sizeLabel(run.size)} (${result.triples.toLocaleString('en-US')} triples): server p50 ${value.toFixed(1)} ms${floor === undefined ? '' : `, floor ${floor.toFixed(1)} ms`}`;
      out.push(
        `<circle data-shape="${escapeXml(s.key)}" cx="${x(triples[i]!).toFixed(1)}" cy="${y(value).toFixed(1)}" r="3" fill="${s.color}"><title>${escapeXml(title)}</title></circle>`,
      );
    });
  }

  // The legend in the order the lines end at the right (slowest at the largest size first), with
  // each shape's growth over the last step: the figure the eye looks for in a scaling chart.
  const last = (s: (typeof series)[number]) => s.server.findLast((v) => v !== undefined) ?? 0;
  const ordered = [...series].sort((a, b) => last(b) - last(a));
  const [before, after] = columns.slice(-2);
  const growthHeader = before && after ? `${sizeLabel(after.run.size)} ÷ ${sizeLabel(before.run.size)}` : '';
  out.push(
    `<text x="${LEGEND}" y="${TOP + 4}" font-weight="600">shape</text>`,
    `<text x="${WIDTH - 12}" y="${TOP + 4}" text-anchor="end" font-weight="600">${escapeXml(growthHeader)}</text>`,
  );
  ordered.forEach((s, i) => {
    const row = TOP + 26 + i * 22;
    const [a, b] = s.server.slice(-2);
    const growth = a !== undefined && b !== undefined && columns.length > 1 ? `${(b / a).toFixed(1)}×` : '–';
    out.push(
      `<g data-legend="${escapeXml(s.key)}">`,
      `<line x1="${LEGEND}" x2="${LEGEND + 24}" y1="${row - 4}" y2="${row - 4}" stroke="${s.color}" stroke-width="2"/>`,
      `<circle cx="${LEGEND + 12}" cy="${row - 4}" r="3" fill="${s.color}"/>`,
      `<text x="${LEGEND + 32}" y="${row}">${escapeXml(s.label)}</text>`,
      `<text x="${WIDTH - 12}" y="${row}" text-anchor="end" fill="#333">${growth}</text>`,
      '</g>',
    );
  });

  caption.forEach((line, i) => {
    out.push(`<text x="${LEFT - 48}" y="${bottom + 62 + i * 16}" fill="#555">${escapeXml(line)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}
