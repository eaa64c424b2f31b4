import { z } from 'zod';
import type { DeltaTriple } from '../plan/change-rules.js';

/** One term, as mu's delta-notifier sends it; fields beyond these are ignored. */
const term = z.object({
  type: z.enum(['uri', 'literal', 'typed-literal', 'bnode']),
  value: z.string(),
  datatype: z.string().optional(),
  'xml:lang': z.string().optional(),
});

const triple = z.object({
  subject: term.refine((t) => t.type === 'uri' || t.type === 'bnode', { error: 'a subject is a uri or a bnode' }),
  predicate: term.refine((t) => t.type === 'uri', { error: 'a predicate is a uri' }),
  object: term,
  graph: term.refine((t) => t.type === 'uri', { error: 'a graph is a uri' }).optional(),
});

/**
 * delta-notifier's `resourceFormat: "v0.0.1"` body: an array of change sets, each with the triples
 * it inserted and deleted (either list may be absent when empty).
 */
export const deltaBodySchema = z.array(
  z.object({ inserts: z.array(triple).default([]), deletes: z.array(triple).default([]) }),
);

/** One change set of a delta message. */
export interface ChangeSet {
  readonly inserts: readonly DeltaTriple[];
  readonly deletes: readonly DeltaTriple[];
}

/**
 * A delta message's change sets, or what is wrong with the body (with where: `0.inserts.2.predicate`).
 *
 * @example parseDeltaBody('[{"inserts":[],"deletes":[]}]') // { changeSets: [{ inserts: [], deletes: [] }] }
 */
export function parseDeltaBody(text: string): { changeSets: ChangeSet[] } | { problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { problem: `the body is not JSON: ${(error as Error).message}` };
  }
  const parsed = deltaBodySchema.safeParse(raw);
  if (parsed.success) return { changeSets: parsed.data as ChangeSet[] };
  const issue = parsed.error.issues[0]!;
  return { problem: `${issue.path.join('.') || '(the body)'}: ${issue.message}` };
}
