import { badParameter } from '../errors/json-api-error.js';

/** One parameter of a family that takes bracketed members (`filter[concerns.notation][eq]=0101`). */
export interface FamilyParameter {
  /** The parameter's name as sent (decoded), for `source.parameter`. */
  readonly name: string;
  /** The bracketed members, in order (`['concerns.notation', 'eq']`); `[]` for the bare family name. */
  readonly members: readonly string[];
  readonly value: string;
}

/**
 * The filter syntax a dataset accepts: this server's (`json-api`, docs/api.md "Filtering"), or
 * also mu-cl-resources' (`mu-cl-resources`, for front-ends written against it; `mu-filter.ts`).
 */
export type FilterSyntax = 'json-api' | 'mu-cl-resources';

/** The query parameters of a request, split by JSON:API family and checked against its naming rules. */
export interface QueryParameters {
  /** The raw `sort` value, when given. */
  readonly sort?: string;
  /** The raw `include` value, when given. */
  readonly include?: string;
  /** `fields[type]`: one entry per type. */
  readonly fields: readonly FamilyParameter[];
  /** `page[number]`, `page[size]`, `page[offset]`, `page[limit]`, `page[after]`, `page[before]`. */
  readonly page: readonly FamilyParameter[];
  /** `filter` and every `filter[…]…` parameter; their grammar is parse-filter's. */
  readonly filter: readonly FamilyParameter[];
  /**
   * `explain-plan` was given: show the plan and the queries (`meta.explain`), where the dataset
   * allows it; `analysed` as the request ran (bare, `1`, `true`), `dry` the plan alone, nothing run.
   */
  readonly explain?: 'analysed' | 'dry';
}

/**
 * The implementation-specific parameter that asks for the plan and the queries of a request
 * (docs/api.md "Explain"). JSON:API 1.1 wants such a name to hold a character outside a–z: `-`.
 */
export const EXPLAIN_PARAMETER = 'explain-plan';

/**
 * `family` or `family[member]…`: JSON:API 1.1 member names (letters and digits at both ends,
 * `-` and `_` inside), and in brackets, dot-separated paths of them or nothing.
 */
const MEMBER = '[a-zA-Z0-9](?:[a-zA-Z0-9_-]*[a-zA-Z0-9])?';
const FAMILY = new RegExp(`^(${MEMBER})((?:\\[(?:${MEMBER}(?:\\.${MEMBER})*)?\\])*)$`);
/**
 * With mu-cl-resources' filter syntax (`filter[:exact:name]`, `filter[:id:]`), a bracketed filter
 * member may also start with a `:modifier:`; `mu-filter.ts` reads what it means.
 */
const MU_FILTER = new RegExp(`^(filter)((?:\\[(?::[a-z-]+:)?(?:${MEMBER}(?:\\.${MEMBER})*)?\\])*)$`);
const SUPPORTED = 'sort, include, fields[type], page[number|size|offset|limit|after|before], filter';
const PAGE_MEMBERS = new Set(['number', 'size', 'offset', 'limit', 'after', 'before']);

/**
 * Reads a raw query string into {@link QueryParameters}, one JSON:API family per field. Every
 * parameter this server does not process is a 400 naming it: JSON:API reserves all-lowercase
 * names, and silently ignoring the others would hide client mistakes. The values are checked by
 * the parser of each family (`parse-sort.ts`, `parse-include.ts`, …), which know the mapping.
 *
 * `filterSyntax` `mu-cl-resources` also lets `filter` members start with a `:modifier:`.
 *
 * @example parseQuery('sort=-financial-year&page[size]=5').page // [{ name: 'page[size]', members: ['size'], value: '5' }]
 */
export function parseQuery(rawQuery: string, filterSyntax: FilterSyntax = 'json-api'): QueryParameters {
  const result: {
    sort?: string;
    include?: string;
    fields: FamilyParameter[];
    page: FamilyParameter[];
    filter: FamilyParameter[];
    explain?: 'analysed' | 'dry';
  } = { fields: [], page: [], filter: [] };
  const seen = new Set<string>();
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    if (seen.has(name)) throw badParameter(name, `'${name}' is given more than once; give it once.`);
    seen.add(name);
    const family = FAMILY.exec(name) ?? (filterSyntax === 'mu-cl-resources' ? MU_FILTER.exec(name) : null);
    if (!family) {
      throw badParameter(
        name,
        `'${name}' is not a valid query parameter name (JSON:API 1.1: a member name, optionally followed by [member] parts).`,
      );
    }
    const base = family[1]!;
    if (name === EXPLAIN_PARAMETER) {
      if (!['', '1', 'true', 'dry'].includes(value))
        throw badParameter(name, `'${name}' takes no value (or 1, or true; or dry: the plan alone); got '${value}'.`);
      result.explain = value === 'dry' ? 'dry' : 'analysed';
      continue;
    }
    const members = family[2] === '' ? [] : family[2]!.slice(1, -1).split('][');
    const parameter = { name, members, value };
    if (base === 'sort' && members.length === 0) result.sort = value;
    else if (base === 'include' && members.length === 0) result.include = value;
    else if (base === 'fields' && members.length === 1 && !members[0]!.includes('.') && members[0] !== '')
      result.fields.push(parameter);
    else if (base === 'fields')
      throw badParameter(
        name,
        `Sparse fieldsets are given as fields[type]=field,field (one type name in brackets); got '${name}'.`,
      );
    else if (base === 'page' && members.length === 1 && PAGE_MEMBERS.has(members[0]!)) result.page.push(parameter);
    else if (base === 'page')
      throw badParameter(
        name,
        `Unknown page parameter '${name}'; supported: page[number], page[size], page[offset], page[limit], page[after], page[before].`,
      );
    else if (base === 'filter') result.filter.push(parameter);
    else if (/^[a-z]+$/.test(base) && members.length === 0)
      throw badParameter(name, `'${name}' is reserved by JSON:API and not supported here; supported: ${SUPPORTED}.`);
    else throw badParameter(name, `Unknown query parameter '${name}'; supported: ${SUPPORTED}.`);
  }
  return result;
}
