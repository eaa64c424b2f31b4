/** One step a request took: an access path, a fetch, an include level; and why. */
export interface TraceStep {
  /** The step's name: an access path (`histogram`), `resource`, `fetch`, `include-1`, … */
  readonly path: string;
  readonly why: string;
  /** The step is the fallback of the one before it, which found it should not go on. */
  readonly fallback?: true;
}

/**
 * The steps one request took, in order, as the executor ran them: what `Server-Timing` names
 * (`path;desc="histogram+fetch"`) and what explain shows beside each query. The executor writes
 * it; nothing reads it back to decide anything but the response cache, which keys what a single
 * resource's document read by the IRI it {@link Trace.found}, and the attributes a page shows by
 * the resources it {@link Trace.shown}.
 *
 * @example const trace = new Trace(); await execute(mapping, plan, store, links, windows, trace); trace.name() // 'histogram+fetch'
 */
export class Trace {
  readonly steps: TraceStep[] = [];
  /** The IRI of the one resource a `resource` plan found (its id may be a `predicate` id's literal). */
  found?: string;
  /** The IRIs of the resources a list's document shows as its primary data (a page's members). */
  shown?: readonly string[];

  /** Records a step; `fallback` when it replaces the step before it (a declared fallback of the plan). */
  step(path: string, why: string, { fallback = false }: { readonly fallback?: boolean } = {}): void {
    this.steps.push({ path, why, ...(fallback && { fallback: true as const }) });
  }

  /** The steps' names: `+` between steps, `>` before a fallback (`histogram>list-query+fetch`); `none` without any. */
  name(): string {
    if (this.steps.length === 0) return 'none';
    return this.steps.map((step, i) => (i === 0 ? '' : step.fallback ? '>' : '+') + step.path).join('');
  }
}
