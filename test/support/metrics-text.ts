/** One series of a Prometheus text exposition: its name, labels and value. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Reads the samples of a Prometheus text exposition (comment lines are skipped). */
export function parseMetrics(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = LINE.exec(line);
      if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(LABEL)].map(([, name, value]) => [name!, JSON.parse(`"${value}"`) as string]),
      );
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The sum of the series named `name` whose labels include `labels` (0 when there is none). */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  return parseMetrics(text)
    .filter(
      (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}
