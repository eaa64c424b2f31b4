/** Where a load is, for the periodic progress line. */
export type LoadProgress =
  | {
      /** Parsing every file before the first write. */
      phase: 'checking';
      file: string;
      /** Triples parsed so far. */
      triples: number;
      bytes: number;
      totalBytes: number;
      /** Since the phase began. */
      seconds: number;
    }
  | {
      /** Sending the triples to the staging graphs. */
      phase: 'loading';
      file: string;
      /** Triples the store has taken so far. */
      triples: number;
      /** Triples the check counted in all files. */
      totalTriples: number;
      seconds: number;
    }
  | {
      /** Moving the staged triples into the target graphs: one request, reported when it begins and on the timer. */
      phase: 'moving';
      triples: number;
      /** The target graphs, as `<iri>` or `the default graph`. */
      graphs: string[];
      /** Since the move began. */
      seconds: number;
    }
  | {
      /** Dropping the staging graphs after the move: reported on the timer only. */
      phase: 'dropping';
      /** The staging graphs, as `<iri>`. */
      graphs: string[];
      seconds: number;
    };

const percent = (fraction: number) => `${Math.floor(fraction * 100)}%`;

/** `12 s`, `4 min 05 s`, `1 h 02 min`. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (s < 3600) return `${Math.floor(s / 60)} min ${pad(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${pad(Math.floor((s % 3600) / 60))} min`;
}

/** Time left when `fraction` of the work took `seconds`, at the same pace; undefined before any progress. */
export function eta(seconds: number, fraction: number): number | undefined {
  if (!(fraction > 0)) return undefined;
  return (seconds * (1 - Math.min(fraction, 1))) / fraction;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/**
 * One progress line. Checking: triples parsed, the share of the bytes read, ETA by bytes.
 * Loading: triples stored of those the check counted, triples/s, ETA by triples stored (the
 * bytes read run ahead of the store by the batches in flight and the blank-node triples held
 * back to the end of each file).
 */
export function formatProgress(p: LoadProgress): string {
  const rate = 'triples' in p && p.seconds > 0 ? Math.round(p.triples / p.seconds) : 0;
  switch (p.phase) {
    case 'checking': {
      const fraction = p.totalBytes > 0 ? p.bytes / p.totalBytes : 1;
      const left = eta(p.seconds, fraction);
      return `checking ${p.file}: ${p.triples} triples parsed, ${percent(fraction)} of ${megabytes(p.totalBytes)} read, ${rate} triples/s, ETA ${left === undefined ? '?' : duration(left)}`;
    }
    case 'loading': {
      const fraction = p.totalTriples > 0 ? p.triples / p.totalTriples : 1;
      const left = eta(p.seconds, fraction);
      return `loading ${p.file}: ${p.triples} of ${p.totalTriples} triples (${percent(fraction)}), ${rate} triples/s, ETA ${left === undefined ? '?' : duration(left)}`;
    }
    case 'moving': {
      const into = p.graphs.length === 1 ? p.graphs[0] : `${p.graphs.length} graphs`;
      return `moving ${p.triples} staged triples into ${into}${p.seconds >= 1 ? `: ${duration(p.seconds)} so far` : ''}`;
    }
    case 'dropping': {
      const what = p.graphs.length === 1 ? `the staging graph ${p.graphs[0]}` : `${p.graphs.length} staging graphs`;
      return `dropping ${what}: ${duration(p.seconds)} so far`;
    }
  }
}
