import type { Mapping, Relationship, ResourceType } from '../mapping/model.js';
import { CURSOR_PAGINATION_MEDIA_TYPE, CURSOR_PAGINATION_PROFILE, JSON_API } from '../request/media-types.js';
import { FIELDS } from './fields-parameter.js';
import { type Json, names, ref } from './json-schema.js';
import { PAGE_PARAMETERS } from './parameters.js';
import { oneOf, typeWords } from './words.js';

/** The error responses of every dataset URL; 400 only where a query parameter can be wrong. */
export const ERROR_STATUSES = ['400', '404', '406', '414', '415', '502', '503', '504'] as const;

/** What one operation answers and takes. */
interface Operation {
  readonly id: string;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly parameters: readonly Json[];
  /** The 200's schema (a component name). */
  readonly ok: string;
  /** Hidden from the docs page (the `/relationships/` spelling of a `/links/` URL). */
  readonly hidden?: boolean;
}

/**
 * Every URL shape of the dataset, type-rooted (the `servers` entry adds the prefix): collection,
 * single resource, related resources, and relationship linkage at `/links/` and `/relationships/`.
 * HEAD, OPTIONS and the 405 of other methods are described once, in `info.description`.
 *
 * @example Object.keys(pathItems(mapping)) // ['/trade-activities', '/trade-activities/{id}', …]
 */
export function pathItems(mapping: Mapping): Record<string, Json> {
  const paths: Record<string, Json> = {};
  const fields = [ref(FIELDS, 'parameters')];
  for (const type of mapping.types.values()) {
    const idParameter = {
      name: 'id',
      in: 'path',
      required: true,
      description: `The ${type.name} id. One that can't be an id of ${type.name} is a 404, with no query to the store.`,
      schema: { type: 'string' },
    };
    paths[`/${type.name}`] = { get: operation(collection(type, fields)) };
    paths[`/${type.name}/{id}`] = { parameters: [idParameter], get: operation(single(type, fields)) };
    for (const relationship of type.relationships.values()) {
      const target = mapping.types.get(relationship.target);
      if (!target) continue;
      paths[`/${type.name}/{id}/${relationship.name}`] = {
        parameters: [idParameter],
        get: operation(related(type, relationship, target, fields)),
      };
      for (const spelling of ['links', 'relationships'] as const) {
        paths[`/${type.name}/{id}/${spelling}/${relationship.name}`] = {
          parameters: [idParameter],
          get: operation(linkage(type, relationship, target, spelling)),
        };
      }
    }
  }
  return paths;
}

const listParameters = (type: ResourceType): Json[] => [
  ref(names.sort(type.name), 'parameters'),
  ref(names.filter(type.name), 'parameters'),
  ...PAGE_PARAMETERS.map((p) => ref(p, 'parameters')),
];

/** `include`, and `fields[type]` of every type of the mapping (any type may be named, included or not). */
const documentParameters = (type: ResourceType, fields: readonly Json[]): Json[] => [
  ref(names.include(type.name), 'parameters'),
  ...fields,
];

function collection(type: ResourceType, fields: readonly Json[]): Operation {
  return {
    id: `${type.name}.list`,
    tag: type.name,
    summary: `List ${typeWords(type.name)}`,
    description: `A page of ${type.name}, sorted, filtered and paged as asked. An empty list is 200 with data: []. Ask for the cursor pagination profile in Accept (${CURSOR_PAGINATION_PROFILE}) to get cursor pages from the first page on.`,
    parameters: [...listParameters(type), ...documentParameters(type, fields)],
    ok: names.collection(type.name),
  };
}

function single(type: ResourceType, fields: readonly Json[]): Operation {
  return {
    id: `${type.name}.get`,
    tag: type.name,
    summary: `Get one ${oneOf(type.name)}`,
    description: `One ${type.name} by id; 404 when there is none.`,
    parameters: documentParameters(type, fields),
    ok: names.single(type.name),
  };
}

function related(
  type: ResourceType,
  relationship: Relationship,
  target: ResourceType,
  fields: readonly Json[],
): Operation {
  const many = relationship.cardinality === 'many';
  return {
    id: `${type.name}.${relationship.name}.related`,
    tag: type.name,
    summary: `${many ? 'List' : 'Get'} the ${typeWords(relationship.name)} of one ${oneOf(type.name)}`,
    description: many
      ? `The ${target.name} the ${type.name}'s ${relationship.name} point at, as a list (sorted, filtered and paged like a collection); 404 when the ${type.name} does not exist.`
      : `The ${target.name} the ${type.name}'s ${relationship.name} points at, or null; 404 when the ${type.name} does not exist.`,
    parameters: [...(many ? listParameters(target) : []), ...documentParameters(target, fields)],
    ok: many ? names.collection(target.name) : names.related(target.name),
  };
}

function linkage(
  type: ResourceType,
  relationship: Relationship,
  target: ResourceType,
  spelling: 'links' | 'relationships',
): Operation {
  const many = relationship.cardinality === 'many';
  return {
    id: `${type.name}.${relationship.name}.${spelling === 'links' ? 'linkage' : 'relationship'}`,
    tag: type.name,
    summary: `Get the ${typeWords(relationship.name)} linkage of one ${oneOf(type.name)}${spelling === 'relationships' ? ' (/relationships/)' : ''}`,
    description: `Resource identifiers of the ${target.name} the relationship points at (${many ? 'a list: sorted, filtered and paged like a collection' : 'one, or null'}), with links.self and links.related; 404 when the ${type.name} does not exist. /${type.name}/{id}/links/${relationship.name} and /${type.name}/{id}/relationships/${relationship.name} answer alike.`,
    parameters: many ? listParameters(target) : [],
    ok: many ? names.toManyLinkage(target.name) : names.toOneLinkage(target.name),
    hidden: spelling === 'relationships',
  };
}

function operation(op: Operation): Json {
  const parameters = [...op.parameters, ref('if-none-match', 'parameters')];
  const errors = ERROR_STATUSES.filter((s) => s !== '400' || op.parameters.length > 0);
  return {
    operationId: op.id,
    tags: [op.tag],
    summary: op.summary,
    description: op.description,
    parameters,
    responses: {
      '200': ref(okResponseName(op.ok), 'responses'),
      '304': ref('not-modified', 'responses'),
      ...Object.fromEntries(errors.map((status) => [status, ref(`error.${status}`, 'responses')])),
      default: ref('error.other', 'responses'),
    },
    ...(op.hidden && { 'x-scalar-ignore': true }),
  };
}

const okResponseName = (schema: string) => `ok.${schema}`;

/**
 * The 200 responses the operations refer to, one per document schema they answer with: lists may
 * be cursor pages, whose Content-Type names the profile (`application/vnd.api+json; profile=…`).
 */
export function okResponses(paths: Record<string, Json>): Record<string, Json> {
  const responses: Record<string, Json> = {};
  for (const item of Object.values(paths)) {
    const op = item.get as { responses: { '200': { $ref: string } } };
    const name = op.responses['200'].$ref.replace('#/components/responses/', '');
    const schemaName = name.slice('ok.'.length);
    const paged = schemaName.endsWith('.collection') || schemaName.endsWith('.to-many-linkage');
    const schema = ref(schemaName);
    responses[name] ??= {
      description: paged
        ? `OK. A cursor page (the profile asked for in Accept, or page[after]/page[before]) has the Content-Type ${CURSOR_PAGINATION_MEDIA_TYPE}.`
        : 'OK',
      headers: {
        ETag: ref('etag', 'headers'),
        'Cache-Control': ref('cache-control', 'headers'),
        Vary: ref('vary', 'headers'),
        'Content-Encoding': ref('content-encoding', 'headers'),
        'Server-Timing': ref('server-timing', 'headers'),
      },
      // One key, the media type: a cursor page's Content-Type adds the profile parameter, which the
      // key matches as a media type range. Listing the profiled type as a second key would make
      // clients that send every listed type in Accept (Scalar does) ask for cursor pages every time.
      content: { [JSON_API]: { schema } },
    };
  }
  return responses;
}
