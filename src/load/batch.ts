/** Triples for one request, grouped by target graph (`''` is the default graph). */
export class Batch {
  readonly graphs = new Map<string, string[]>();
  size = 0;
  /** Set by {@link packBlankTriples}: the batch holds blank nodes. */
  hasBlankNodes = false;

  add(graph: string, line: string): void {
    let lines = this.graphs.get(graph);
    if (!lines) this.graphs.set(graph, (lines = []));
    lines.push(line);
    this.size++;
  }
}

/** A triple that mentions blank nodes, held back until its whole file has been read. */
export interface BlankTriple {
  graph: string;
  line: string;
  labels: string[];
}

/**
 * Packs the blank-node triples of one file into batches without splitting a group of
 * triples connected through blank nodes: stores scope blank-node labels to one request,
 * so `_:b1` in two requests would become two different nodes. A group larger than
 * `batchTriples` goes alone in one (larger) request.
 */
export function packBlankTriples(triples: BlankTriple[], batchTriples: number): Batch[] {
  const parent = new Map<string, string>();
  const find = (label: string): string => {
    if (!parent.has(label)) {
      parent.set(label, label);
      return label;
    }
    let root = label;
    while (parent.get(root) !== root) root = parent.get(root)!;
    // path compression keeps long chains (rdf:List) near-linear
    for (let l = label; l !== root; ) {
      const next = parent.get(l)!;
      parent.set(l, root);
      l = next;
    }
    return root;
  };
  for (const triple of triples) {
    const [first, ...others] = triple.labels;
    for (const other of others) {
      const a = find(first!);
      const b = find(other);
      if (a !== b) parent.set(b, a);
    }
    if (first !== undefined) find(first);
  }
  const groups = new Map<string, BlankTriple[]>();
  for (const triple of triples) {
    const root = find(triple.labels[0]!);
    let group = groups.get(root);
    if (!group) groups.set(root, (group = []));
    group.push(triple);
  }
  const batches: Batch[] = [];
  const next = () => Object.assign(new Batch(), { hasBlankNodes: true });
  let current = next();
  for (const group of groups.values()) {
    if (current.size > 0 && current.size + group.length > batchTriples) {
      batches.push(current);
      current = next();
    }
    for (const triple of group) current.add(triple.graph, triple.line);
  }
  if (current.size > 0) batches.push(current);
  return batches;
}
