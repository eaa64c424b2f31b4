import type { Mapping } from '../mapping/model.js';
import { buildCursorPositionQuery } from '../sparql/key-histogram.js';
import { buildCountQuery } from '../sparql/list-query.js';
import type { AccessPath, ListRead, ListTraits } from './paths/access-path.js';
import { queryText } from './run-query.js';

/** A query a plan node sends: its label (as explain's `queries` give it), and its text when no earlier answer decides it. */
export interface PlannedQuery {
  readonly label: string;
  /** The SPARQL, as the run sends it; absent when the text depends on an earlier answer (the page's IRIs, a histogram's range). */
  readonly text?: string;
  /** When it is sent, if not always. */
  readonly when?: string;
}

/**
 * A node of the plan as explain shows it: a step the request may take (its name is the trace's),
 * why, when (a conditional node), its queries, the steps it may add (`adds`: the kept list's
 * patch) and its declared fallback.
 */
export interface PlanNode {
  readonly name: string;
  readonly why: string;
  readonly when?: string;
  readonly queries: readonly PlannedQuery[];
  readonly adds?: readonly PlanNode[];
  readonly fallback?: PlanNode;
}

/** How the store is written to: its graph and text order (the planner's traits). */
type Writing = Pick<ListTraits, 'oneGraph' | 'textOrder'>;

/**
 * A planned list read (`paths/plan-list-read.ts`) as plan nodes: each path with its queries' texts
 * (as `runQuery` writes them for the store) and its declared fallback, conditional children
 * included. Nothing is sent.
 *
 * @example describeList(mapping, planListRead(mapping, read, traits), traits).fallback?.name // 'list-query'
 */
export function describeList(mapping: Mapping, path: AccessPath, writing: Writing): PlanNode {
  const text = (query: Parameters<typeof queryText>[0]) => queryText(query, writing.textOrder);
  const fallback =
    'fallback' in path
      ? { fallback: { ...describeList(mapping, path.fallback.path, writing), when: path.fallback.when } }
      : {};
  const node = (queries: PlannedQuery[], more: Partial<PlanNode> = {}): PlanNode => ({
    name: path.kind,
    why: path.why,
    queries,
    ...more,
    ...fallback,
  });
  const count = countQueries(mapping, path.read, writing);
  switch (path.kind) {
    case 'window-cache':
      return node([{ label: 'whole-list', text: text(path.query), when: WHOLE_LIST }], { adds: [PATCH] });
    case 'histogram': {
      const { guess } = path;
      const after = path.read.keyset?.after;
      return node([
        { label: guess ? 'histogram+range' : 'histogram', text: guess?.text ?? path.text },
        ...(after
          ? [
              {
                label: 'position',
                text: text(buildCursorPositionQuery(mapping, path.read.request, after)),
                when: POSITION,
              },
            ]
          : []),
        {
          label: 'range',
          when: 'the histogram read does not bring the page (its text is the range the histogram gives)',
        },
      ]);
    }
    case 'related-page':
      return node([{ label: 'page', text: text(path.query) }, ...relatedCount(mapping, path.read, writing)]);
    case 'related-list':
      return node([{ label: 'list', text: text(path.query) }, ...relatedCount(mapping, path.read, writing)]);
    case 'keyed-window':
      return node([{ label: 'keyed', text: text(path.query) }, ...count]);
    case 'list-query':
    case 'keyset':
      return node([{ label: 'list', text: text(path.query) }, ...count]);
    case 'keyset-wider':
      return node([
        { label: 'list', text: text(path.query) },
        { label: 'list', when: WIDER_AGAIN },
      ]);
  }
}

const WHOLE_LIST = 'the list is not kept and no reading of it runs: read whole in the background, beside this request';
const POSITION = 'the histogram places the cursor’s value (values that cannot tie)';
const WIDER_AGAIN = 'still short: twice the rows again (its text is the window’s, doubled)';

/** The kept list's patch: a step the window cache may add before it cuts the page. */
const PATCH: PlanNode = {
  name: 'patch',
  why: 'the kept list went stale by changes of its members’ triples or their hop’s: those members read again, and moved',
  when: 'the kept list went stale by changes confined to known members',
  queries: [
    { label: 'patch-reach', when: 'a changed resource is reached through the sort key’s hop' },
    { label: 'patch-list', when: 'a changed member is listed, or may join' },
  ],
};

/** The count sent beside a list's window: when the read counts (not given by a step before), or a related list's empty window proves its parent. */
function countQueries(mapping: Mapping, read: ListRead, { oneGraph, textOrder }: Writing): PlannedQuery[] {
  const text = queryText(buildCountQuery(mapping, read.request, { oneGraph }), textOrder);
  if (read.count === 'query') return [{ label: 'count', text }];
  if (read.count === 'none' && read.request.parent)
    return [{ label: 'count', text, when: 'the window is empty, past its first row (whether the parent exists)' }];
  return [];
}

/** A related page's count: when its window is empty or full (a window it does not fill ends the list). */
function relatedCount(mapping: Mapping, read: ListRead, { oneGraph, textOrder }: Writing): PlannedQuery[] {
  const text = queryText(buildCountQuery(mapping, read.request, { oneGraph }), textOrder);
  return [{ label: 'count', text, when: 'the window is empty or full' }];
}
