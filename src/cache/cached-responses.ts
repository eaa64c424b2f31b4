import { Variants } from '../http/compression.js';
import { represent } from '../http/conditional.js';
import type { Handler } from '../http/handler.js';
import { type JsonApiPipeline, sendAnswer } from '../http/json-api-handler.js';
import { planReads } from './plan-reads.js';
import type { CacheKey, ResponseCache } from './response-cache.js';

/**
 * The JSON:API handler with the response cache put around it: a request whose 200 is kept (and
 * still fresh: `freshness.ts`) is sent from the cache; any other runs the pipeline
 * (`http/json-api-handler.ts`), stamped before the store is asked, and its 200 is kept for the
 * dataset's TTL with the IRIs it read (`plan-reads.ts`), unless a change to them came meanwhile.
 * A dataset whose TTL is 0 is served by the pipeline alone. What drops an entry: its TTL, the
 * cache's memory bound, and a change (a delta, a reload) to what it read.
 *
 * @example app.use(cachedResponses(jsonApiPipeline(options), new ResponseCache()))
 */
export function cachedResponses(pipeline: JsonApiPipeline, cache: ResponseCache): Handler {
  return async (req, res) => {
    const target = pipeline.target(req);
    const ttl = target.options.cacheTtlSeconds;
    const key: CacheKey = {
      dataset: target.dataset.name,
      path: target.path,
      query: target.query,
      mediaType: target.mediaType,
    };
    const grown = () => cache.grown(key);
    // Only 200s are cached, so an entry exists only for a request that plans without error.
    const cached = cache.get(key, ttl);
    if (cached) {
      res.setHeader('Server-Timing', 'cache;desc=hit');
      await sendAnswer(req, res, { target, variants: cached, grown });
      return;
    }
    // Before anything is read: a change announced from now on makes this answer stale.
    const stamp = cache.now();
    const answer = await pipeline.answer(target, req, res);
    if (answer.explained || ttl <= 0) {
      res.setHeader('Server-Timing', answer.timing);
      await sendAnswer(req, res, { target, answer });
      return;
    }
    const { plan, trace } = answer;
    const reads = planReads(target.dataset.mapping, plan, trace.found, trace.shown);
    const reading = { dataset: target.dataset.name, reads, stamp };
    const variants = cache.set(key, new Variants(represent(answer.document)), ttl, reading);
    res.setHeader('Server-Timing', `${answer.timing}, cache;desc=miss`);
    await sendAnswer(req, res, { target, variants, grown });
  };
}
