import { machineLine } from './report.js';
import type { RunResult } from './results.js';

const COLORS: Readonly<Record<string, { server: string; floor: string }>> = {
  embedded: { server: '#1f6fb4', floor: '#9ec5e8' },
  virtuoso: { server: '#c0392b', floor: '#f2a59c' },
};
const WIDTH = 1100;
const PANEL = 250;
const LEFT = 64;
const RIGHT = 16;
const TOP = 78;
const LABELS = 44;

/** Text made safe for SVG element content and attribute values. */
export const escapeXml = (text: string) =>
  text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);

/**
 * The label of a gridline at a power of ten: `0.1`, `1`, `1,000` (no float noise such as
 * `0.30000000000000004`, and thousands grouped, so 10,000 and 100,000 read apart at a glance).
 *
 * @example decadeLabel(10 ** -2) // '0.01'; decadeLabel(1e4) // '10,000'
 */
export function decadeLabel(decade: number): string {
  const exponent = Math.round(Math.log10(decade));
  return exponent >= 0 ? (10 ** exponent).toLocaleString('en-US') : (10 ** exponent).toFixed(-exponent);
}

/** Splits a label into lines of about `width` characters, at spaces. */
function wrap(label: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of label.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + word.length + 1 <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/**
 * A grouped bar chart (SVG) of every run: one panel per dataset size, one group per request
 * shape, and per store a dark bar for the server's p50 and a light one for the floor's (the same
 * SPARQL sent straight to the store), on a log scale, with the machine and the date.
 *
 * @example await writeFile('bench/results/latest.svg', renderChart(runs));
 */
export function renderChart(runs: readonly RunResult[]): string {
  const values = runs.flatMap((run) =>
    run.stores.flatMap((s) =>
      s.shapes.flatMap((shape) =>
        shape.status === 'ok' ? [shape.sequential.server.p50, shape.sequential.floor.p50] : [],
      ),
    ),
  );
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  const lo = 10 ** Math.floor(Math.log10(Math.min(...positive, 1)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...positive, 10)));
  const height = TOP + runs.length * (PANEL + LABELS + 30) + 10;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${LEFT}" y="22" font-size="15" font-weight="600">sparql-jsonapi: p50 latency per request shape, server vs store floor (ms, log scale)</text>`,
  ];
  const first = runs[0];
  if (first)
    out.push(`<text x="${LEFT}" y="40" fill="#555">${escapeXml(machineLine(first.machine, first.date))}</text>`);
  out.push(
    `<text x="${WIDTH - RIGHT}" y="62" text-anchor="end" fill="#555">server: HTTP request, end to end · floor: the same SPARQL straight to the store</text>`,
  );
  const stores = [...new Set(runs.flatMap((run) => run.stores.map((s) => s.store)))];
  stores.forEach((store, i) => {
    const x = LEFT + i * 300;
    const color = COLORS[store] ?? COLORS.embedded!;
    out.push(
      `<rect x="${x}" y="52" width="12" height="12" fill="${color.server}"/><text x="${x + 16}" y="62">${store}: server</text>`,
      `<rect x="${x + 140}" y="52" width="12" height="12" fill="${color.floor}"/><text x="${x + 156}" y="62">${store}: floor</text>`,
    );
  });

  runs.forEach((run, panel) => {
    const top = TOP + panel * (PANEL + LABELS + 30) + 20;
    const bottom = top + PANEL;
    const y = (v: number) =>
      bottom - ((Math.log10(Math.max(v, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * PANEL;
    out.push(
      `<text x="${LEFT}" y="${top - 6}" font-size="13" font-weight="600">${escapeXml(`${run.size} triples${run.smoke ? ' (smoke run)' : ''} · ${run.date.slice(0, 10)} · load average ${Math.max(run.loadAverage.start, run.loadAverage.end).toFixed(1)} on ${run.machine.cores} cores`)}</text>`,
    );
    for (let decade = lo; decade <= hi * 1.0001; decade *= 10) {
      out.push(
        `<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(decade).toFixed(1)}" y2="${y(decade).toFixed(1)}" stroke="#ddd"/>`,
        `<text x="${LEFT - 6}" y="${(y(decade) + 4).toFixed(1)}" text-anchor="end" fill="#555">${decadeLabel(decade)}</text>`,
      );
    }
    const shapes = run.stores[0]?.shapes.map((s) => ({ key: s.key, label: s.label })) ?? [];
    const group = (WIDTH - LEFT - RIGHT) / Math.max(1, shapes.length);
    const bar = Math.min(18, (group - 12) / Math.max(1, run.stores.length * 2));
    shapes.forEach((shape, g) => {
      const x0 = LEFT + g * group + (group - bar * run.stores.length * 2) / 2;
      run.stores.forEach((result, s) => {
        const figures = result.shapes.find((r) => r.key === shape.key);
        const color = COLORS[result.store] ?? COLORS.embedded!;
        const x = x0 + s * 2 * bar;
        if (figures?.status !== 'ok') {
          out.push(`<text x="${x + bar}" y="${bottom - 4}" text-anchor="middle" fill="#888">n/a</text>`);
          return;
        }
        for (const [k, [value, fill]] of (
          [
            [figures.sequential.server.p50, color.server],
            [figures.sequential.floor.p50, color.floor],
          ] as const
        ).entries()) {
          const top = y(value);
          out.push(
            `<rect x="${(x + k * bar).toFixed(1)}" y="${top.toFixed(1)}" width="${(bar - 1).toFixed(1)}" height="${(bottom - top).toFixed(1)}" fill="${fill}"><title>${escapeXml(`${result.store} ${k === 0 ? 'server' : 'floor'}: ${shape.label}: p50 ${value.toFixed(2)} ms`)}</title></rect>`,
          );
        }
      });
      for (const [l, line] of wrap(shape.label, 16).entries()) {
        out.push(
          `<text x="${(LEFT + (g + 0.5) * group).toFixed(1)}" y="${bottom + 14 + l * 13}" text-anchor="middle">${escapeXml(line)}</text>`,
        );
      }
    });
    out.push(`<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${bottom}" y2="${bottom}" stroke="#333"/>`);
  });
  out.push('</svg>');
  return out.join('\n');
}
