import type { Mapping, ResourceType } from '../mapping/model.js';
import type { Plan, View } from '../plan/plan.js';
import { shownAttributes } from '../plan/shown-attributes.js';
import type { IncludeNode } from '../request/parse-include.js';
import { fetchQuery } from '../sparql/fetch-query.js';
import { describeList, type PlanNode } from './describe-list.js';
import { pageRead, planWindowRead, traitsOf } from './list-page.js';
import type { PathContext } from './paths/access-path.js';
import { planListRead } from './paths/plan-list-read.js';
import { queryText } from './run-query.js';

/**
 * The whole plan of a request, before anything runs (`?explain-plan=dry`): its steps in order,
 * each with its queries' texts where no earlier answer decides them, and every conditional node
 * (fallbacks, retries, the kept list's patch, the fetch, each include level). It plans exactly as
 * {@link execute} does (the same planner, the same traits), so the steps a run takes are a path
 * through it, with the same names and the same texts. Nothing is sent to the store.
 *
 * @example describePlan(mapping, plan, { store, kept, hints, memo }).map((node) => node.name) // ['histogram', 'fetch']
 */
export function describePlan(
  mapping: Mapping,
  plan: Plan,
  context: Pick<PathContext, 'store' | 'kept' | 'hints' | 'memo'>,
): PlanNode[] {
  const traits = traitsOf(context);
  const { type } = plan.kind === 'resource' ? plan : plan.list;
  const includes = 'view' in plan ? includeLevels(plan.view) : [];
  switch (plan.kind) {
    case 'resource': {
      const fetch = fetchQuery(type, { lookup: plan.lookup }, shownAttributes(type, plan.view.fields), context.memo);
      const how = plan.lookup.kind === 'iri' ? 'its IRI from the id' : 'looked up by the id';
      const why = `one resource by its id (${how})`;
      return [
        { name: 'resource', why, queries: [{ label: 'resource', text: queryText(fetch, traits.textOrder) }] },
        ...includes,
      ];
    }
    case 'collection': {
      const attributes = shownAttributes(type, plan.view.fields);
      const path = planListRead(mapping, pageRead(plan.list, plan.paging, attributes), traits);
      return [describeList(mapping, path, traits), ...fetchNode(type, plan.view), ...includes];
    }
    case 'related-one': {
      const path = planWindowRead(mapping, { request: plan.list, window: { limit: 1, offset: 0 } }, traits);
      return [describeList(mapping, path, traits), ...fetchNode(type, plan.view), ...includes];
    }
    case 'linkage': {
      const path = plan.paging
        ? planListRead(mapping, pageRead(plan.list, plan.paging), traits)
        : planWindowRead(mapping, { request: plan.list, window: { limit: 1, offset: 0 } }, traits);
      return [describeList(mapping, path, traits)];
    }
  }
}

/** The fetch of a page's attributes: when the fieldset shows any, the page has members, and the list path did not bring their values. */
function fetchNode(type: ResourceType, view: View): PlanNode[] {
  if (shownAttributes(type, view.fields).length === 0) return [];
  return [
    {
      name: 'fetch',
      why: 'the attributes of the page’s resources, by VALUES',
      when: 'the page has members, and its list path did not bring their values',
      queries: [{ label: 'fetch', when: 'its text holds the page’s IRIs' }],
    },
  ];
}

/** One node per include level, each taken when the level before reached resources. */
function includeLevels(view: View): PlanNode[] {
  const levels: PlanNode[] = [];
  for (let depth = 1, level = view.include ?? []; level.length > 0; depth++) {
    const names = level.map((node) => node.relationship.name).join(', ');
    levels.push({
      name: `include-${depth}`,
      why: `include level ${depth} (${names}): one query from the level before's resources, by VALUES`,
      when: depth === 1 ? 'the page has members' : 'the level before reached resources',
      queries: [{ label: `include-${depth}`, when: 'its text holds the level before’s IRIs' }],
    });
    level = level.flatMap((node: IncludeNode) => node.children);
  }
  return levels;
}
