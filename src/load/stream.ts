import { Batch, type BlankTriple, packBlankTriples } from './batch.js';
import type { RequestPolicy } from './http.js';
import { FAILED, type LoadRun } from './load-run.js';
import type { LoadProgress } from './progress.js';
import { type Protocol, refusalError, sendBatch } from './protocol.js';
import { type CheckedFiles, readTriples } from './source.js';
import type { StagedGraph } from './staging.js';

/**
 * Step 3 of a load: the triples of every file, in batches, into the staging graphs (or the
 * targets), a few requests in flight while the parser fills the next batch; the first failure
 * stops the load (the other requests in flight are not retried).
 */
export class BatchStream {
  /** Triples the store has taken. */
  stored = 0;
  file: string;
  protocol: Protocol;
  readonly pending = new Set<Promise<void>>();
  private failure: unknown;
  /** While the guessed Graph Store URL is on trial, nothing else is sent. */
  private probing: boolean;
  private readonly policy: Partial<RequestPolicy>;
  private readonly phaseStart: number;

  constructor(
    private readonly run: LoadRun,
    private readonly checked: CheckedFiles,
  ) {
    this.file = run.options.files[0]!;
    this.protocol = run.graphStoreUrl ? 'graph-store' : 'update';
    this.probing = run.guessedGraphStore;
    this.policy = { stop: run.stop.signal, abort: run.abort.signal };
    this.phaseStart = run.elapsed();
  }

  /** The first failure of a request, if any; else what stopped the load. */
  get cause(): unknown {
    return this.failure;
  }

  /** Triples the check counted in all files. */
  get total(): number {
    return this.checked.triples;
  }

  progress(): LoadProgress {
    const { stored: triples, file } = this;
    const seconds = this.run.elapsed() - this.phaseStart;
    return { phase: 'loading', file, triples, totalTriples: this.checked.triples, seconds };
  }

  /** Sends every file's triples; rejects with the first failure, or the stop's reason. */
  async sendAll(staged: readonly StagedGraph[]): Promise<void> {
    const stagingOf = new Map(staged.map((g) => [g.target, g.staging]));
    for (const [index, file] of this.run.options.files.entries()) {
      this.file = file;
      const blankTriples: BlankTriple[] = [];
      let batch = new Batch();
      for await (const triple of this.checked.kept?.[index] ?? readTriples(file, index, this.run.options.graph)) {
        if (this.run.stop.signal.aborted) this.check();
        const graph = stagingOf.get(triple.graph)!;
        if (triple.blanks) {
          // Held back to the end of the file (see packBlankTriples): these are kept in memory.
          blankTriples.push({ graph, line: triple.line, labels: triple.blanks });
          continue;
        }
        batch.add(graph, triple.line);
        if (batch.size >= this.batchSize()) {
          await this.submit(batch);
          batch = new Batch();
        }
      }
      if (batch.size > 0) await this.submit(batch);
      for (const blankBatch of packBlankTriples(blankTriples, this.batchSize())) await this.submit(blankBatch);
    }
    await Promise.all(this.pending);
    this.check();
  }

  /** While probing a guessed Graph Store URL the batch must also fit an INSERT DATA, for the fallback. */
  private batchSize(): number {
    return this.run.options.batchTriples ?? (this.protocol === 'update' || this.probing ? 1_000 : 20_000);
  }

  private check(): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.run.stop.signal.aborted) throw this.run.stop.signal.reason;
  }

  private async submit(batch: Batch): Promise<void> {
    const { run, pending } = this;
    while (pending.size >= (this.probing ? 1 : (run.options.concurrency ?? 2))) await Promise.race(pending);
    this.check();
    const request: Promise<void> = this.send(batch).then(
      () => void pending.delete(request),
      (error: unknown) => {
        pending.delete(request);
        if (this.failure === undefined && !run.stop.signal.aborted) {
          this.failure = error;
          run.stop.abort(FAILED);
        }
      },
    );
    pending.add(request);
  }

  private async send(batch: Batch): Promise<void> {
    const { run } = this;
    const target = () => (this.protocol === 'update' ? run.endpointUrl : run.graphStoreUrl!);
    let sent = await sendBatch(run.client, { protocol: this.protocol, target: target(), batch, policy: this.policy });
    if (this.probing) {
      this.probing = false;
      // The guessed Graph Store URL does not exist on this store: use SPARQL Update from now on.
      if (sent.refusal && [404, 405, 415].includes(sent.refusal.status)) {
        this.protocol = 'update';
        sent = await sendBatch(run.client, { protocol: 'update', target: target(), batch, policy: this.policy });
      }
    }
    if (sent.refusal) throw refusalError(this.protocol, sent.url, sent.refusal);
    this.stored += batch.size;
    if (run.progressEvery === 0) run.report(this.progress());
  }
}
