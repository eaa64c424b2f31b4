import type { Mapping } from '../mapping/model.js';
import { EXPLAIN_PARAMETER } from '../request/parse-query.js';
import { SHARED } from './document-schemas.js';
import { type Json, names, ref } from './json-schema.js';

const EXPLAIN = 'jsonapi.explain';
// Short names: each document schema of every type refers to them (schema.org has 72 types).
const DRY = 'jsonapi.dry';
const META = 'jsonapi.explain-meta';

/** A node of a request's plan (`explain-plan=dry`, and `plan` beside the steps a request took). */
const PLAN_NODE: Json = {
  type: 'object',
  required: ['name', 'why', 'queries'],
  properties: {
    name: {
      type: 'string',
      description: 'The step’s name, as the trace and Server-Timing give it: histogram, fetch, include-1, …',
    },
    why: { type: 'string' },
    when: { type: 'string', description: 'A conditional node: when it is taken.' },
    queries: {
      type: 'array',
      items: {
        type: 'object',
        required: ['label'],
        properties: {
          label: { type: 'string' },
          text: { type: 'string', description: 'The SPARQL the run sends; absent when an earlier answer decides it.' },
          when: { type: 'string' },
        },
      },
    },
    adds: { type: 'array', items: { $ref: '#/components/schemas/jsonapi.plan-node' } },
    fallback: { $ref: '#/components/schemas/jsonapi.plan-node' },
  },
};

/** The document of `explain-plan=dry`: the plan alone, no data, nothing run. */
const DRY_DOCUMENT: Json = {
  type: 'object',
  description:
    'explain-plan=dry: the request’s plan, every node with its SPARQL where no earlier answer decides it; no query is sent.',
  required: ['jsonapi', 'meta'],
  not: { required: ['data'] },
  properties: {
    jsonapi: { type: 'object' },
    links: { type: 'object' },
    meta: {
      type: 'object',
      required: ['explain'],
      properties: {
        explain: {
          type: 'object',
          required: ['dry', 'plan'],
          properties: { dry: { const: true }, plan: { type: 'array', items: ref('jsonapi.plan-node') } },
        },
      },
    },
  },
};

/** `meta.explain` (docs/api.md "Explain"): the steps a request took, and each query it sent. */
const EXPLAIN_SCHEMA: Json = {
  type: 'object',
  description: 'What the request did: the steps it took and why, and each SPARQL query it sent (with explain-plan).',
  required: ['plan', 'path', 'steps', 'queryCount', 'storeMs', 'queries'],
  properties: {
    plan: {
      type: 'array',
      items: ref('jsonapi.plan-node'),
      description: 'The request’s whole plan, as explain-plan=dry shows it.',
    },
    path: { type: 'string', description: 'The steps’ names, as Server-Timing’s path gives them: histogram+fetch.' },
    steps: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'why'],
        properties: { path: { type: 'string' }, why: { type: 'string' }, fallback: { const: true } },
      },
    },
    queryCount: { type: 'integer', minimum: 0 },
    storeMs: { type: 'number', minimum: 0 },
    queries: {
      type: 'array',
      items: {
        type: 'object',
        required: ['label', 'lane', 'text', 'startMs', 'ms'],
        properties: {
          label: { type: 'string', description: 'What the query was for: histogram, list, count, fetch, include-1, …' },
          lane: { enum: ['light', 'heavy'] },
          text: { type: 'string', description: 'The SPARQL sent.' },
          startMs: { type: 'number' },
          ms: { type: 'number', minimum: 0 },
          rows: { type: 'integer', minimum: 0 },
          error: { type: 'string' },
        },
      },
    },
  },
};

/**
 * What a dataset that explains adds to its description: the `explain-plan` parameter on every
 * operation, and `meta.explain` in every document.
 *
 * @example withExplain(mapping, { paths, parameters, schemas }) // paths['/concepts'].get.parameters ends with explain-plan
 */
export function withExplain(
  mapping: Mapping,
  {
    paths,
    parameters,
    schemas,
  }: { paths: Record<string, Json>; parameters: Record<string, Json>; schemas: Record<string, Json> },
): void {
  parameters[EXPLAIN_PARAMETER] = {
    name: EXPLAIN_PARAMETER,
    in: 'query',
    description:
      'Explain (implementation-specific): the document’s meta.explain shows the request’s plan, the steps it took and why, and each SPARQL query with its label, lane, time, rows and text. With explain-plan=dry, the plan alone (every node, conditional ones included, with its SPARQL where no earlier answer decides it) and no data: no query is sent. The response is never cached.',
    schema: { type: 'string', enum: ['', '1', 'true', 'dry'] },
    allowEmptyValue: true,
  };
  for (const item of Object.values(paths))
    (item.get as { parameters: Json[] } | undefined)?.parameters.push(ref(EXPLAIN_PARAMETER, 'parameters'));
  schemas[EXPLAIN] = EXPLAIN_SCHEMA;
  schemas['jsonapi.plan-node'] = PLAN_NODE;
  schemas[DRY] = DRY_DOCUMENT;
  // Replaced, never changed in place: the shared schemas are module constants that a dataset
  // without explain describes with too.
  const pageMeta = schemas[SHARED.pageMeta] as { properties: Json };
  schemas[SHARED.pageMeta] = { ...pageMeta, properties: { ...pageMeta.properties, explain: ref(EXPLAIN) } };
  schemas[META] = { type: 'object', additionalProperties: false, properties: { explain: ref(EXPLAIN) } };
  const meta = ref(META);
  for (const type of mapping.types.keys()) {
    for (const name of [names.single(type), names.related(type), names.toOneLinkage(type)]) {
      const document = schemas[name] as { properties: Json };
      schemas[name] = { ...document, properties: { ...document.properties, meta } };
    }
    // Every document of a request may be its dry plan instead.
    for (const name of [
      names.single(type),
      names.related(type),
      names.collection(type),
      names.toOneLinkage(type),
      names.toManyLinkage(type),
    ])
      if (schemas[name]) schemas[name] = { anyOf: [schemas[name], ref(DRY)] };
  }
}
