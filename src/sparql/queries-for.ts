import type { Mapping } from '../mapping/model.js';
import type { Plan } from '../plan/plan-request.js';
import { buildFetchQuery } from './fetch-query.js';
import { buildListQuery } from './list-query.js';
import { toText } from './to-text.js';

/**
 * The SPARQL a plan sends, in order, with `exampleIris` standing for the members the list query
 * finds: what `execute` runs, written out for the golden files in `queries/` and for the README.
 */
export function queriesFor(mapping: Mapping, plan: Plan, exampleIris: readonly string[]): string[] {
  switch (plan.kind) {
    case 'resource':
      return [toText(buildFetchQuery(plan.type, { lookup: plan.lookup }))];
    case 'linkage':
      return [toText(buildListQuery(mapping, plan.list))];
    case 'collection':
    case 'related-one': {
      const list = toText(buildListQuery(mapping, plan.list));
      const iris = plan.kind === 'related-one' ? exampleIris.slice(0, 1) : exampleIris;
      return plan.list.type.attributes.size > 0 ? [list, toText(buildFetchQuery(plan.list.type, { iris }))] : [list];
    }
  }
}
