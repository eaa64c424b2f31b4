/** Latency summary of one series of samples, in milliseconds. */
export interface LatencySummary {
  readonly samples: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly mean: number;
}

/**
 * The `p`-th percentile (0..100) of `values` by the nearest-rank method: the smallest sample
 * with at least p % of the samples at or below it, so the result is always a measured value.
 * `NaN` for no samples.
 *
 * @example percentile([5, 1, 3, 2, 4], 50) // 3
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

/**
 * The median of the finite values (NaN, a run that gave no figure, left out); NaN when none is.
 *
 * @example median([3, Number.NaN, 1, 2]) // 2
 */
export function median(values: readonly number[]): number {
  const finite = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (finite.length === 0) return Number.NaN;
  const mid = Math.floor(finite.length / 2);
  return finite.length % 2 ? finite[mid]! : (finite[mid - 1]! + finite[mid]!) / 2;
}

/**
 * p50, p95, p99 and mean of a series of latencies.
 *
 * @example summarize([1, 2, 3, 4]).p50 // 2
 */
export function summarize(values: readonly number[]): LatencySummary {
  const mean = values.length === 0 ? Number.NaN : values.reduce((sum, v) => sum + v, 0) / values.length;
  return {
    samples: values.length,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    mean,
  };
}

/** What a response's `Server-Timing` says about SPARQL: how many queries, and the store's time. */
export interface SparqlTiming {
  readonly queries: number;
  readonly ms: number;
}

/**
 * Reads the `sparql` metric of a `Server-Timing` header (other metrics may stand beside it);
 * undefined when there is none.
 *
 * @example parseServerTiming('sparql;dur=4.2;desc="2 queries"') // { queries: 2, ms: 4.2 }
 */
export function parseServerTiming(header: string | null | undefined): SparqlTiming | undefined {
  if (!header) return undefined;
  for (const metric of header.split(',')) {
    const [name, ...params] = metric.split(';').map((part) => part.trim());
    if (name !== 'sparql') continue;
    let ms = Number.NaN;
    let queries = Number.NaN;
    for (const param of params) {
      const [key, rawValue = ''] = param.split('=', 2).map((s) => s.trim()) as [string, string?];
      const value = rawValue.replace(/^"|"$/g, '');
      if (key === 'dur') ms = Number(value);
      if (key === 'desc') queries = Number(/^(\d+) quer/.exec(value)?.[1] ?? Number.NaN);
    }
    return { queries, ms };
  }
  return undefined;
}
