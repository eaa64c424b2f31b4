import type { Logger } from 'pino';
import { type Dataset, type DatasetOptions, optionsOf } from '../dataset.js';
import { badParameter, JsonApiError, notFound } from '../errors/json-api-error.js';
import { describePlan } from '../execute/describe-plan.js';
import { execute } from '../execute/execute.js';
import type { Remembered } from '../execute/paths/access-path.js';
import { withSignal } from '../execute/run-query.js';
import { Trace } from '../execute/trace.js';
import type { Plan } from '../plan/plan.js';
import { planRequest } from '../plan/plan-request.js';
import { CURSOR_PAGINATION_MEDIA_TYPE, CURSOR_PAGINATION_PROFILE, JSON_API } from '../request/media-types.js';
import { negotiate } from '../request/negotiate.js';
import type { Route } from '../request/parse-path.js';
import { EXPLAIN_PARAMETER, parseQuery } from '../request/parse-query.js';
import type { Document } from '../shape/documents.js';
import { requestLink } from '../shape/page-links.js';
import { QueryRecorder } from '../store/query-recorder.js';
import { sendVariants, Variants } from './compression.js';
import { represent } from './conditional.js';
import { ALLOW } from './cors.js';
import { dryDocument, explanation, queryLog } from './explain.js';
import type { Handler, Request, Response } from './handler.js';
import { parsedTarget } from './parsed-target.js';
import { linkBaseFor } from './public-base.js';
import { ClientGone, requestSignal, requestTimeout, serverStopping } from './request-signal.js';

/** What the JSON:API handler serves, and what the app remembers for each dataset (given to the executor). */
export interface JsonApiOptions {
  readonly datasets: ReadonlyMap<string, Dataset>;
  readonly defaultDataset: Dataset;
  readonly logger: Logger;
  readonly shutdown?: AbortSignal | undefined;
  /** The kept lists, hints and query memo of a dataset (`cache/`), as the executor reads them; none by default. */
  readonly remembered?: (dataset: Dataset, options: DatasetOptions) => Remembered;
}

/** A request resolved before anything is planned: its dataset (with its options), route, query and media type. */
export interface JsonApiTarget {
  readonly dataset: Dataset;
  readonly options: DatasetOptions;
  readonly route: Route;
  /** The type-rooted path (`/trade-activities/5a3f`), whatever prefix the URL had. */
  readonly path: string;
  /** The raw query string. */
  readonly query: string;
  readonly profiles: readonly string[];
  /** The negotiated media type: the cursor profile, when asked for, changes the body. */
  readonly mediaType: string;
  /** The prefix of every link: the dataset's, or the base a trusted proxy gave (`public-base.ts`). */
  readonly linkBase: string;
}

/** What answering a request gave: its document, the plan and the steps it took, and its `Server-Timing`. */
export interface JsonApiAnswer {
  readonly document: Document;
  readonly plan: Plan;
  readonly trace: Trace;
  readonly timing: string;
  /** Asked with `explain-plan`: an answer of this one run, never to be kept. */
  readonly explained: boolean;
}

/** The JSON:API pipeline in its stages, for the handler and for what is put around it (`cache/cached-responses.ts`). */
export interface JsonApiPipeline {
  /** 405, negotiation, the route and its dataset. */
  target(req: Request): JsonApiTarget;
  /** Parse the query, plan, execute (SPARQL), shape. */
  answer(target: JsonApiTarget, req: Request, res: Response): Promise<JsonApiAnswer>;
}

/**
 * Serves every JSON:API URL: `/api/<dataset>/<type>[/<id>[/<relationship> | /links/<relationship>]]`,
 * and the same without the `/api/<dataset>` prefix for the default dataset. The pipeline, in order:
 * negotiate → parse path → parse query and plan → execute (SPARQL) → send (a 304 when
 * If-None-Match matches). `Server-Timing` gives the queries, the store's time and the steps the
 * request took; with `explain-plan` (where the dataset allows it) `meta.explain` shows them with
 * each query (`explain.ts`). Nothing here remembers: the response cache is put around it
 * (`cache/cached-responses.ts`), and the executor gets what else the app remembers from `remembered`.
 */
export function jsonApiHandler(options: JsonApiOptions): Handler {
  const pipeline = jsonApiPipeline(options);
  return async (req, res) => {
    const target = pipeline.target(req);
    const answer = await pipeline.answer(target, req, res);
    res.setHeader('Server-Timing', answer.timing);
    await sendAnswer(req, res, { target, answer });
  };
}

/** What {@link sendAnswer} sends: an answer's document, or the variants a cache kept of one. */
export type Sent =
  | { readonly target: JsonApiTarget; readonly answer: JsonApiAnswer }
  | { readonly target: JsonApiTarget; readonly variants: Variants; readonly grown: () => void };

/**
 * Sends an answer's document: `no-store` when explained, else with the dataset's `Cache-Control`;
 * or the variants a cache kept (`grown`: told when a compressed form is added to them).
 */
export function sendAnswer(req: Request, res: Response, sent: Sent): Promise<void> {
  const { cacheControl } = sent.target.options;
  if ('variants' in sent) return sendVariants(req, res, sent.variants, { cacheControl, made: sent.grown });
  const variants = new Variants(represent(sent.answer.document));
  return sendVariants(req, res, variants, { cacheControl: sent.answer.explained ? 'no-store' : cacheControl });
}

/** The stages of {@link jsonApiHandler}, each a function of what the one before gave. */
export function jsonApiPipeline({
  datasets,
  defaultDataset,
  logger,
  shutdown,
  remembered,
}: JsonApiOptions): JsonApiPipeline {
  // A dataset's options with their defaults, merged once rather than per request.
  const optionsByDataset = new Map<Dataset, DatasetOptions>();
  const optionsFor = (dataset: Dataset): DatasetOptions => {
    let options = optionsByDataset.get(dataset);
    if (options === undefined) {
      options = optionsOf(dataset);
      optionsByDataset.set(dataset, options);
    }
    return options;
  };
  return {
    target: (req) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw notAllowed(req.method);
      const { profiles } = negotiate(req.headers.accept, req.headers['content-type']);
      const url = parsedTarget(req); // split and parsed once: the metrics and the error log read it too
      const route = url.route();
      const dataset = route.dataset === undefined ? defaultDataset : datasets.get(route.dataset);
      if (!dataset)
        throw notFound(`There is no dataset '${route.dataset}'. Datasets: ${[...datasets.keys()].join(', ')}.`);
      const mediaType = profiles.includes(CURSOR_PAGINATION_PROFILE) ? CURSOR_PAGINATION_MEDIA_TYPE : JSON_API;
      const options = optionsFor(dataset);
      const linkBase = linkBaseFor(req, dataset);
      return { dataset, options, route, path: canonicalPath(route), query: url.query, profiles, mediaType, linkBase };
    },
    answer: (target, req, res) => answer(target, { req, res, logger, shutdown, remembered }),
  };
}

/** Plans and executes one request, within its deadline. */
async function answer(
  target: JsonApiTarget,
  {
    req,
    res,
    logger,
    shutdown,
    remembered,
  }: Pick<JsonApiOptions, 'logger' | 'shutdown' | 'remembered'> & { req: Request; res: Response },
): Promise<JsonApiAnswer> {
  const { dataset, options, route } = target;
  const parameters = parseQuery(target.query, options.filterSyntax);
  if (parameters.explain && !options.explain) throw explainOff();
  const plan = planRequest(dataset.mapping, { route, query: parameters, profiles: target.profiles }, options);
  const recorder = new QueryRecorder(dataset.store, queryLog(logger, req));
  const trace = new Trace();
  const { linkBase } = target;
  const page = { path: linkBase + target.path, query: target.query };
  const links = {
    linkBase,
    self: requestLink(page),
    related: linkBase + canonicalPath({ ...route, linkage: undefined }),
    page,
  };
  const remembers = remembered?.(dataset, options);
  const planned = parameters.explain && describePlan(dataset.mapping, plan, { store: dataset.store, ...remembers });
  // The plan alone, nothing sent to the store.
  if (parameters.explain === 'dry' && planned)
    return {
      document: dryDocument(planned, links.self),
      plan,
      trace,
      timing: recorder.serverTiming('dry'),
      explained: true,
    };
  // The store's work stops when the deadline passes, the client goes away, or the server stops.
  const stop = requestSignal(res, options.timeoutMs, shutdown);
  const { signal } = stop;
  try {
    const store = withSignal(recorder.store, signal);
    const document = await execute(dataset.mapping, plan, { store, links, trace, ...remembers });
    // An explanation is of this one run: never cached, here or by anyone.
    if (planned) document.meta = { ...document.meta, explain: explanation(planned, trace, recorder) };
    return {
      document,
      plan,
      trace,
      timing: recorder.serverTiming(trace.name()),
      explained: parameters.explain !== undefined,
    };
  } catch (error) {
    res.setHeader('Server-Timing', recorder.serverTiming(trace.name()));
    if (!signal.aborted) throw error;
    if (shutdown?.aborted) throw serverStopping(error);
    if (stop.expired()) throw requestTimeout(options.timeoutMs, error);
    throw new ClientGone('the client closed the connection', { cause: error });
  } finally {
    stop.dispose();
  }
}

/** The 405 of a method other than GET and HEAD. */
const notAllowed = (method: string | undefined) =>
  new JsonApiError(405, 'Method Not Allowed', `This API is read-only; ${method} is not allowed. Allowed: ${ALLOW}.`, {
    headers: { Allow: ALLOW },
  });

/** The 400 of `explain-plan` on a dataset that does not explain. */
const explainOff = () =>
  badParameter(
    EXPLAIN_PARAMETER,
    `Explain is off for this dataset: turn it on with 'explain: true' in its configuration, or serve --explain.`,
  );

/** The type-rooted path of a route (`/trade-activities/5a3f/links/concerns`). */
function canonicalPath(route: Route): string {
  let path = `/${encodeURIComponent(route.type)}`;
  if (route.id !== undefined) path += `/${encodeURIComponent(route.id)}`;
  if (route.linkage !== undefined) path += `/${route.linkage}`; // `links` or `relationships`: nothing to encode
  if (route.relationship !== undefined) path += `/${encodeURIComponent(route.relationship)}`;
  return path;
}
