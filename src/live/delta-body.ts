import { z } from 'zod';
import { deltaTripleSchema } from './delta-triple.js';

/**
 * delta-notifier's `resourceFormat: "v0.0.1"` body: an array of change sets, each with the triples
 * it inserted and deleted (either list may be absent when empty).
 */
export const deltaBodySchema = z.array(
  z.object({ inserts: z.array(deltaTripleSchema).default([]), deletes: z.array(deltaTripleSchema).default([]) }),
);

/** One change set of a delta message. */
export type ChangeSet = Readonly<z.infer<typeof deltaBodySchema>[number]>;

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
  if (parsed.success) return { changeSets: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { problem: `${issue.path.join('.') || '(the body)'}: ${issue.message}` };
}
