/**
 * How the window cache patches one kept list after changes of its members (`ListPatcher`): the
 * list's own query kept to the changed members, and those moved (`patch-list.ts`).
 */
import type { SelectQuery } from 'sparqljs';
import { listLane, runQuery } from '../execute/run-query.js';
import type { Trace } from '../execute/trace.js';
import { isSafeAbsoluteIri } from '../mapping/iri.js';
import type { Mapping } from '../mapping/model.js';
import type { ListRequest } from '../plan/plan.js';
import { membersReaching, restrictedToMembers } from '../sparql/member-queries.js';
import { perMemberKeyIndex } from '../sparql/per-member-key.js';
import type { Store } from '../store/store.js';
import type { ListPatcher } from './list-windows.js';
import { patchList } from './patch-list.js';
import { type PatchScope, patchDecision, patchScope } from './patchable-list.js';

/** The list a patcher patches: its request, and the whole list's query, sent to `store` kept to the changed members. */
export interface PatchedList {
  readonly mapping: Mapping;
  readonly request: ListRequest;
  readonly store: Store;
  readonly query: SelectQuery;
  /** Where a patch says so (`patch` in Server-Timing and explain). */
  readonly trace?: Trace | undefined;
}

/**
 * How the window cache patches this list (`window-cache.ts` ListPatcher): its changed members
 * read by the list's own query kept to them, one query, and moved (`patch-list.ts`). A subject
 * the server would not write in a query (not an IRI it accepts) makes the list be read whole.
 *
 * @example windows.listNow(key, reads, read, listPatcher({ mapping, request, store, query, trace }))
 */
export function listPatcher({ mapping, request, store, query, trace }: PatchedList): ListPatcher {
  // Worked out when first asked, once: a cache hit never asks (the patcher is made per request).
  let worked: PatchScope | string | undefined;
  const scope = () => (worked ??= patchScope(request, mapping, perMemberKeyIndex(request)));
  return {
    confined: (stale) => patchDecision(scope(), stale).patchable,
    roleOf: (iri) => {
      const known = scope();
      return typeof known === 'string'
        ? { member: false, target: false, keyOnly: false }
        : { member: known.member.has(iri), target: known.target.has(iri), keyOnly: known.keyOnly.has(iri) };
    },
    patch: async (list, changed, joinable = changed, targets = new Set()) => {
      const known = scope();
      const hop = typeof known === 'string' ? undefined : known.hop;
      if (targets.size > 0 && hop === undefined) return undefined;
      const reached = [...targets];
      if (!reached.every(isSafeAbsoluteIri)) return undefined;
      // The members a changed target is reached from (a concept's new label moves the activities
      // that concern it): a query of their own, then read again with the others.
      const reaching =
        hop && reached.length > 0
          ? await runQuery(store, membersReaching(hop, reached), listLane(request), 'patch-reach')
          : [];
      const moved = new Set(reaching.flatMap((row) => (row.s?.termType === 'NamedNode' ? [row.s.value] : [])));
      // A resource changed only in a sort key (or reached through the hop, which changes keys alone)
      // moves if it is listed, and stays out if it is not: only the listed ones are read again (a list
      // filtered to one country of 30 reads none of most changes, and sends no query).
      const reread = new Set(joinable);
      for (const iri of changed) moved.add(iri);
      if ([...moved].some((iri) => !reread.has(iri)))
        for (const { iri } of list.members) if (moved.has(iri)) reread.add(iri);
      const members = [...reread];
      if (!members.every(isSafeAbsoluteIri)) return undefined;
      const rows =
        members.length === 0
          ? []
          : await runQuery(store, restrictedToMembers(query, members), listLane(request), 'patch-list');
      const patched = patchList(request, list, reread, rows);
      if (patched)
        trace?.step(
          'patch',
          `the kept list went stale by changes of its members' triples or their hop's: ${members.length} members read again${reached.length ? ` (${reaching.length} reached from ${reached.length} changed targets)` : ''}${members.length ? ', one query' : ': none listed, no query'}, and moved`,
        );
      return patched;
    },
  };
}
