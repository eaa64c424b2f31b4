import { describe, expect, it } from 'vitest';
import { decadeLabel } from '../../bench/chart.js';
import type { Size } from '../../bench/options.js';
import type { RunResult, ShapeResult } from '../../bench/results.js';
import { renderScalingChart } from '../../bench/scaling-chart.js';
import { measured, storeResult } from './results-fixtures.js';

function run(size: Size, triples: number, shapes: ShapeResult[], overrides: Partial<RunResult> = {}): RunResult {
  return {
    date: '2026-11-27T19:17:13.914Z',
    machine: { cpu: 'Test CPU', cores: 2, memoryBytes: 2 ** 34, os: 'Linux', node: 'v20.0.0', commit: 'abc1234' },
    size,
    smoke: false,
    settings: { durationSeconds: 3, iterations: 20, connections: [10], serverProcess: 'child' },
    stores: [storeResult({ size, triples, shapes })],
    loadAverage: { start: 0.5, end: 1.5 },
    skipped: [],
    ...overrides,
  };
}

const attr = (tag: string, name: string) => Number(new RegExp(`\\b${name}="([^"]+)"`).exec(tag)?.[1]);
/** The server points of one shape, as [cx, cy], in the order drawn. */
const points = (svg: string, key: string) =>
  [...svg.matchAll(new RegExp(`<circle data-shape="${key}"[^>]*>`, 'g'))].map(([tag]) => [
    attr(tag, 'cx'),
    attr(tag, 'cy'),
  ]);
/** The position of an axis' tick label (its gridline's x or y). */
function tick(svg: string, axis: 'x' | 'y', label: string): number {
  const tag = [...svg.matchAll(new RegExp(`<text [^>]*data-tick="${axis}">${label}</text>`, 'g'))][0]?.[0];
  if (!tag) throw new Error(`no ${axis} tick ${label}`);
  return axis === 'x' ? attr(tag, 'x') : attr(tag, 'y') - 4;
}
const path = (svg: string, key: string, series: 'server' | 'floor') =>
  new RegExp(`<path data-shape="${key}" data-series="${series}" d="([^"]*)"`).exec(svg)?.[1];

// Three decades of triples, and p50s on decades too, so every position can be checked against the ticks.
const runs = [
  run('100k', 1e5, [measured('single', 1, 0.5), measured('collection', 10, 9), measured('related', 2, 1)]),
  run('1m', 1e6, [measured('single', 1.5, 0.7), measured('collection', 100, 90), measured('related', 2, 1)], {
    date: '2026-11-25T10:00:00.000Z',
    loadAverage: { start: 22.53, end: 16.72 },
    machine: { cpu: 'Test CPU', cores: 2, memoryBytes: 2 ** 34, os: 'Linux', node: 'v20.0.0', commit: 'def5678' },
  }),
  run('10m', 1e7, [measured('single', 3, 1.2), measured('collection', 1000, 950)]),
];

describe('renderScalingChart', () => {
  const svg = renderScalingChart(runs);

  it('places each point on log scales: equal steps per decade, at the gridline of its value', () => {
    const collection = points(svg, 'collection');
    expect(collection).toHaveLength(3);
    const [[x1, y1], [x2, y2], [x3, y3]] = collection as [[number, number], [number, number], [number, number]];
    // Triples 1e5, 1e6, 1e7 and p50s 10, 100, 1000: a decade apart each, so equally spaced on both axes.
    expect(x2 - x1).toBeCloseTo(x3 - x2, 0);
    expect(y1 - y2).toBeCloseTo(y2 - y3, 0);
    expect(x1).toBeCloseTo(tick(svg, 'x', '100k'), 0);
    expect(x3).toBeCloseTo(tick(svg, 'x', '10M'), 0);
    expect(y1).toBeCloseTo(tick(svg, 'y', '10'), 0);
    expect(y3).toBeCloseTo(tick(svg, 'y', '1,000'), 0);
    // A value between decades sits at log10 of its ratio: 1.5 ms is 0.176 of the way from 1 to 10.
    const ySingle = points(svg, 'single')[1]?.[1];
    const one = tick(svg, 'y', '1');
    const ten = tick(svg, 'y', '10');
    expect((one - ySingle!) / (one - ten)).toBeCloseTo(Math.log10(1.5), 2);
  });

  it('draws one server line and one dashed floor line per shape, through its points', () => {
    for (const key of ['single', 'collection', 'related']) {
      expect(svg.match(new RegExp(`<path data-shape="${key}" data-series="server"`, 'g'))).toHaveLength(1);
      expect(
        svg.match(new RegExp(`<path data-shape="${key}" data-series="floor"[^>]*stroke-dasharray`, 'g')),
      ).toHaveLength(1);
    }
    const d = path(svg, 'collection', 'server')!;
    const drawn = points(svg, 'collection').map(([cx, cy]) => `${cx!.toFixed(1)},${cy!.toFixed(1)}`);
    expect(d).toBe(`M${drawn[0]} L${drawn[1]} L${drawn[2]}`);
    // The floor is its own line, below the server's where the floor is faster.
    expect(path(svg, 'collection', 'floor')).not.toBe(d);
  });

  it('leaves a gap where a shape was not measured, instead of a point made up', () => {
    // `related` has no figure at 10M: its line stops at 1M.
    expect(points(svg, 'related')).toHaveLength(2);
    expect(path(svg, 'related', 'server')).toMatch(/^M[\d.,]+ L[\d.,]+$/);
    // A hole in the middle (n/a at 1M) breaks the line into two strokes; a lone point draws no segment.
    const holed = renderScalingChart([
      run('100k', 1e5, [measured('single', 1, 0.5), measured('include', 50, 45)]),
      run('1m', 1e6, [measured('single', 2, 1), { key: 'include', label: 'include', status: 'n/a', reason: 'slow' }]),
      run('10m', 1e7, [measured('single', 3, 1), measured('include', 900, 800)]),
    ]);
    expect(points(holed, 'include')).toHaveLength(2);
    const d = path(holed, 'include', 'server')!;
    expect(d.match(/M/g)).toHaveLength(2);
    expect(d).not.toContain('L');
    expect(path(holed, 'single', 'server')!.match(/L/g)).toHaveLength(2);
  });

  it('names every shape in the legend, slowest at the largest size first, with its growth over the last step', () => {
    const legend = [...svg.matchAll(/<g data-legend="([^"]+)">[\s\S]*?<\/g>/g)];
    expect(legend.map(([, key]) => key)).toEqual(['collection', 'single', 'related']);
    const growth = (key: string) =>
      legend.find(([, k]) => k === key)?.[0].match(/text-anchor="end" fill="#333">([^<]*)</)?.[1];
    expect(growth('collection')).toBe('10.0×');
    expect(growth('single')).toBe('2.0×');
    expect(growth('related')).toBe('–');
    expect(svg).toContain('>10M ÷ 1M<');
  });

  it('captions every run with its date, commit and load average, flagging a shared machine', () => {
    expect(svg).toContain(
      '1M, 1,000,000 triples: 2026-11-25 10:00 UTC, commit def5678, load average 22.5 → 16.7 (above the cores',
    );
    expect(svg).toContain('100k, 100,000 triples: 2026-11-27 19:17 UTC, commit abc1234, load average 0.5 → 1.5<');
    expect(svg.match(/Test CPU, 2 cores, 16 GB · Node v20\.0\.0/g)).toHaveLength(1);
  });

  it('sorts runs by size, leaves the floor out when asked, and escapes labels', () => {
    const shuffled = renderScalingChart([runs[2]!, runs[0]!, runs[1]!], { floor: false });
    expect(points(shuffled, 'collection').map(([cx]) => cx)).toEqual(points(svg, 'collection').map(([cx]) => cx));
    expect(shuffled).not.toContain('data-series="floor"');
    const odd = renderScalingChart([run('100k', 1e5, [{ ...measured('a<b', 1, 1), label: 'a < b & "c"' }])]);
    expect(odd).toContain('a &lt; b &amp; &quot;c&quot;');
    expect(odd).not.toContain('a < b');
  });

  it('refuses two runs of one size, and a run without the store asked for', () => {
    expect(() => renderScalingChart([runs[0]!, runs[0]!])).toThrow(/two runs at 100000 triples/);
    expect(() => renderScalingChart(runs, { store: 'embedded' })).toThrow(/has no embedded figures/);
  });
});

describe('decadeLabel', () => {
  it.each([
    [0.01, '0.01'],
    [0.1, '0.1'],
    [1, '1'],
    [1000, '1,000'],
    [1e5, '100,000'],
  ])('%s → %s', (decade, label) => {
    expect(decadeLabel(decade)).toBe(label);
  });
});
