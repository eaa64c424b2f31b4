import type { Term } from '@rdfjs/types';
import { badParameter } from '../errors/json-api-error.js';
import { memberSortKey } from '../mapping/ids.js';
import type { ResourceType } from '../mapping/model.js';
import { DEFAULT_REQUEST_LIMITS } from '../plan/plan.js';
import { shownAttributes } from '../plan/shown-attributes.js';
import type { Fieldsets } from '../request/parse-fields.js';
import type { IncludeNode } from '../request/parse-include.js';
import { codePointCompare } from '../shape/literal-to-json.js';
import { type Member, type RelationshipData, type ResourceObject, resourceObject } from '../shape/resource-objects.js';
import { buildIncludeQuery } from '../sparql/include-query.js';
import type { Store } from '../store/store.js';
import { type BranchRows, readIncludeRows } from './rows.js';
import { runQuery } from './run-query.js';
import { Trace } from './trace.js';

/** The related resources of a document, and the linkage of the relationships they were reached by. */
export interface Inclusion {
  /** Each resource once, primary ones left out, in the order the levels reached them. */
  readonly included: ResourceObject[];
  /** Linkage of the included relationships of a primary resource (undefined when it has none). */
  linkageOf(member: Member): ReadonlyMap<string, RelationshipData> | undefined;
}

/** A resource of the document, primary or included, with what the include levels found about it. */
interface Entry {
  readonly type: ResourceType;
  readonly member: Member;
  readonly primary: boolean;
  /** Attribute values, by attribute name (included resources only; primary ones are fetched apart). */
  readonly values: Map<string, Term[]>;
  /** Linkage of every relationship followed from this resource. */
  readonly linkage: Map<string, RelationshipData>;
}

/** One include node to follow at the current level, from the resources its parent reached. */
interface Step {
  readonly node: IncludeNode;
  readonly sources: readonly Entry[];
}

/** The primary resources of a document: the type they are read as, and which they are. */
export interface PrimaryResources {
  readonly type: ResourceType;
  readonly members: readonly Member[];
}

/** What following the include tree needs besides the tree and the primary resources. */
export interface IncludeOptions {
  readonly store: Store;
  /** The base of the included resources' links. */
  readonly linkBase: string;
  /** Which attributes of each type the included resources show. */
  readonly fieldsets: Fieldsets;
  /** At most this many included resources in all; past it, a 400. */
  readonly maxIncluded?: number;
  readonly trace?: Trace;
}

/**
 * Follows the include tree from the primary resources, one SPARQL query per level for the whole
 * page (never one per resource): level n+1 starts from the resources level n reached. Each query
 * gives the linkage and the attributes (those the fieldsets show) of what it reaches. A to-one
 * relationship links, and includes, only its first target by id, as its related URL shows.
 * Included to-many linkage is not paged: every target is linked and included, up to `maxIncluded`
 * resources in all; a request that reaches more is a 400 (narrow `include` or `page[size]`).
 *
 * @example await includeRelated(parseInclude('concerns.broader-concepts', mapping, activities, 3), { type: activities, members }, { store, linkBase: '', fieldsets: new Map() })
 */
export async function includeRelated(
  include: readonly IncludeNode[],
  primary: PrimaryResources,
  options: IncludeOptions,
): Promise<Inclusion> {
  const { store, linkBase, fieldsets, maxIncluded = DEFAULT_REQUEST_LIMITS.included, trace = new Trace() } = options;
  const entries = new Entries();
  const sources = primary.members.map((member) => entries.primary(primary.type, member));
  let level: Step[] = include.map((node) => ({ node, sources }));
  for (let depth = 1; (level = level.filter((step) => step.sources.length > 0)).length > 0; depth++) {
    const found = await readLevel(level, depth, { store, fieldsets, trace });
    level = level.flatMap((step, n) => follow(step, found[n]!, entries));
    const included = entries.size - sources.length;
    if (included > maxIncluded) {
      throw badParameter(
        'include',
        `This document would include more than ${maxIncluded} resources (at least ${included}); include fewer relationships or ask for a smaller page[size].`,
      );
    }
  }
  const objectOf = (entry: Entry) =>
    resourceObject(entry.type, entry.member, entry.values, {
      linkBase,
      fields: fieldsets.get(entry.type.name),
      linkage: entry.linkage,
    });
  return {
    included: entries.included().map(objectOf),
    linkageOf: (member) => entries.find(primary.type, member.iri)?.linkage,
  };
}

/** One include level's query, for all its steps at once, read back one {@link BranchRows} per step. */
async function readLevel(
  level: readonly Step[],
  depth: number,
  { store, fieldsets, trace }: Required<Pick<IncludeOptions, 'store' | 'fieldsets' | 'trace'>>,
): Promise<BranchRows[]> {
  const names = level.map(({ node }) => node.relationship.name).join(', ');
  trace.step(
    `include-${depth}`,
    `include level ${depth} (${names}): one query from the level before's resources, by VALUES`,
  );
  const query = buildIncludeQuery(
    level.map(({ node, sources }) => ({
      relationship: node.relationship,
      target: node.type,
      sources: sources.map((source) => source.member.iri),
      attributes: shownAttributes(node.type, fieldsets),
    })),
  );
  return readIncludeRows(
    await runQuery(store, query, 'light', `include-${depth}`),
    level.map(({ node }) => node.type),
  );
}

/**
 * Links each source of a step to the targets its branch found (a to-one relationship to its first
 * only), gives the targets their values, and returns the next level's steps from what it reached.
 */
function follow({ node, sources }: Step, { targets: targetsOf, values }: BranchRows, entries: Entries): Step[] {
  const reached = new Map<string, Entry>();
  // In the order of the target's list: by id or by IRI, as its strategy sorts.
  const key = (member: Member) => memberSortKey(node.type.id, member);
  for (const source of sources) {
    const all = [...(targetsOf.get(source.member.iri)?.values() ?? [])].sort((a, b) =>
      codePointCompare(key(a), key(b)),
    );
    const targets = node.relationship.cardinality === 'one' ? all.slice(0, 1) : all;
    for (const target of targets) {
      const entry = entries.reached(node.type, target);
      if (!entry.primary && entry.values.size === 0) copyValues(values.get(target.iri), entry.values);
      reached.set(keyOf(node.type, target.iri), entry);
    }
    const linkage = targets.map((target) => ({ type: node.type.name, id: target.id }));
    source.linkage.set(
      node.relationship.name,
      node.relationship.cardinality === 'one' ? (linkage[0] ?? null) : linkage,
    );
  }
  return node.children.map((child) => ({ node: child, sources: [...reached.values()] }));
}

/** The document's resources, primary and included, each once by type and IRI, in the order the levels reached them. */
class Entries {
  private readonly byKey = new Map<string, Entry>();

  get size(): number {
    return this.byKey.size;
  }

  /** A primary resource's entry. */
  primary(type: ResourceType, member: Member): Entry {
    return (
      this.find(type, member.iri) ?? this.keep({ type, member, primary: true, values: new Map(), linkage: new Map() })
    );
  }

  /** The entry of a resource an include level reached: the existing one when it is primary or was reached before. */
  reached(type: ResourceType, member: Member): Entry {
    return (
      this.find(type, member.iri) ?? this.keep({ type, member, primary: false, values: new Map(), linkage: new Map() })
    );
  }

  find(type: ResourceType, iri: string): Entry | undefined {
    return this.byKey.get(keyOf(type, iri));
  }

  /** The included resources: every entry but the primary ones. */
  included(): Entry[] {
    return [...this.byKey.values()].filter((entry) => !entry.primary);
  }

  private keep(entry: Entry): Entry {
    this.byKey.set(keyOf(entry.type, entry.member.iri), entry);
    return entry;
  }
}

/** An included resource's attribute values are the same from every source: the first branch that reaches it gives them. */
function copyValues(from: ReadonlyMap<string, Term[]> | undefined, into: Map<string, Term[]>): void {
  for (const [field, terms] of from ?? []) into.set(field, terms);
}

/** A resource's key in the document: its type and IRI (an IRI may be a member of several types). */
const keyOf = (type: ResourceType, iri: string) => `${type.name} ${iri}`;
