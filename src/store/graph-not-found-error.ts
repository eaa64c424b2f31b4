/** How many of the files' named graphs a {@link GraphNotFoundError} names. */
export const SHOWN_GRAPHS = 10;

/** The `graph` option names a graph that none of the files has a quad in: a configuration mistake. */
export class GraphNotFoundError extends Error {
  override name = 'GraphNotFoundError';
  constructor(
    readonly graph: string,
    /** The first named graphs the files do hold (at most {@link SHOWN_GRAPHS}). */
    readonly available: readonly string[],
    files: readonly string[],
  ) {
    const held =
      available.length === 0
        ? 'they hold no named graph'
        : `their named graphs: ${available
            .slice(0, SHOWN_GRAPHS)
            .map((g) => `<${g}>`)
            .join(', ')}${available.length > SHOWN_GRAPHS ? ', …' : ''}`;
    super(`graph <${graph}> has no triple in the data files (${files.join(', ')}); ${held}`);
  }
}
