/**
 * What planning a list page costs, with no store: `planListRead` (every node of the plan, its
 * fallbacks and their queries built, nothing sent) for `/trade-activities?sort=-financial-year`
 * pages of the sample mapping, with the window cache on and off, as an app plans them (its
 * template memo and histogram hints). The planner runs on every list request, cached or not.
 *
 *   npx tsx bench/plan-cost.ts [--plans N]     (default 5000)
 */
import { parseArgs } from 'node:util';
import { histogramHints } from '../src/cache/histogram-hints.js';
import { templateMemo } from '../src/cache/template-memo.js';
import { planListRead } from '../src/execute/paths/plan-list-read.js';
import { loadMapping } from '../src/mapping/load-mapping.js';
import { parseSort } from '../src/request/parse-sort.js';

const { values } = parseArgs({ options: { plans: { type: 'string', default: '5000' } } });
const plans = Number(values.plans);
const mapping = await loadMapping('mappings/sample.yaml');
const type = mapping.types.get('trade-activities')!;
const attributes = [...type.attributes.values()];

for (const windowCache of [true, false]) {
  const traits = { oneGraph: true, windowCache, memo: templateMemo(), hints: histogramHints() };
  const plan = (i: number) => {
    const request = { type, sort: parseSort('-financial-year', mapping, type), filters: [] };
    const window = { offset: (i % 50) * 20, limit: 21 };
    return planListRead(mapping, { request, window, count: 'query', attributes }, traits);
  };
  for (let i = 0; i < 500; i++) plan(i); // warm: the memo's templates, the JIT
  const started = performance.now();
  for (let i = 0; i < plans; i++) plan(i);
  const ms = (performance.now() - started) / plans;
  console.log(`window cache ${windowCache ? 'on ' : 'off'}: ${plan(0).kind} plan, ${ms.toFixed(3)} ms per plan`);
}
