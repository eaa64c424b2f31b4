import type { ListRequest } from '../plan/plan.js';
import type { KeyValue } from '../request/cursor.js';
import type { Member } from '../shape/resource-objects.js';
import type { Row } from '../store/store.js';
import { keyValueReader, membersOf, relatedMembersOf } from './rows.js';

/** Members in the order a query read them, and their sort key values (`keys[i]` for `members[i]`). */
export interface MembersRead {
  readonly members: Member[];
  readonly keys: (readonly KeyValue[])[];
}

/**
 * Members and their sort key values, from list-query rows that project the keys.
 *
 * @example membersRead(request, rows).keys[0] // [literal('2016-01-01Z', xsdDate)]
 */
export function membersRead(request: ListRequest, rows: readonly Row[]): MembersRead {
  const members = (request.parent ? relatedMembersOf : membersOf)(request.type, rows);
  // A member's first row: the one it is listed by (a later one may carry another key value).
  const rowOf = new Map<string | undefined, Row>();
  for (const row of rows) if (!rowOf.has(row.s?.value)) rowOf.set(row.s?.value, row);
  const keysOf = keyValueReader(request);
  return { members, keys: members.map((member) => keysOf(rowOf.get(member.iri)!)) };
}
