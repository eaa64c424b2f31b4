/*
 * The ledger's keys beyond bare IRIs (`freshness.ts`): what an answer about one resource reads.
 * Nothing is kept here; the keys are what the ledger and the change rules (`live/change-rules.ts`) share.
 */

/**
 * The ledger key of the triples of `predicate` that have `resource` at either end (subject or
 * object): what an answer about one resource reads instead of the bare predicate (`plan-reads.ts`),
 * so that a change to another resource's triples keeps it. Without a resource, the key of a
 * change whose end can't be told (a blank node): every reader of one resource's key reads it too.
 * Angle brackets keep an IRI apart from the wildcard and from the predicate.
 *
 * @example resourceKey('http://purl.org/dc/terms/title', 'http://x/a') // 'http://purl.org/dc/terms/title <http://x/a>'
 */
export function resourceKey(predicate: string, resource?: string): string {
  return resource === undefined ? `${predicate} *` : `${predicate} <${resource}>`;
}

/** Whether a ledger key is a {@link resourceKey} rather than a bare IRI (an IRI holds no space). */
export const isResourceKey = (key: string): boolean => key.includes(' ');
