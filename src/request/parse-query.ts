import { badParameter } from '../errors/json-api-error.js';

/** The query parameters of a request, checked against JSON:API 1.1's naming rules. */
export interface QueryParameters {
  /** The raw `sort` value, when given. */
  readonly sort?: string;
}

/**
 * `family` or `family[member]…`: JSON:API 1.1 member names (letters and digits at both ends,
 * `-` and `_` inside), and in brackets, dot-separated paths of them or nothing.
 */
const MEMBER = '[a-zA-Z0-9](?:[a-zA-Z0-9_-]*[a-zA-Z0-9])?';
const FAMILY = new RegExp(`^(${MEMBER})((?:\\[(?:${MEMBER}(?:\\.${MEMBER})*)?\\])*)$`);
/** Families JSON:API defines that this server does not implement yet. */
const NOT_YET = new Set(['include', 'fields', 'page', 'filter']);

/**
 * Reads a raw query string (`sort=-financial-year`) into {@link QueryParameters}. Every parameter
 * this server does not process is a 400 naming it: JSON:API reserves all-lowercase names, and
 * silently ignoring the others would hide client mistakes.
 *
 * @example parseQuery('sort=-financial-year') // { sort: '-financial-year' }
 */
export function parseQuery(rawQuery: string): QueryParameters {
  const result: { sort?: string } = {};
  const seen = new Set<string>();
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    if (seen.has(name)) throw badParameter(name, `'${name}' is given more than once; give it once.`);
    seen.add(name);
    const family = FAMILY.exec(name);
    if (!family) {
      throw badParameter(name, `'${name}' is not a valid query parameter name (JSON:API 1.1: a member name, optionally followed by [member] parts).`);
    }
    const [, base, members] = family;
    if (name === 'sort') result.sort = value;
    else if (NOT_YET.has(base!)) throw badParameter(name, `The '${base}' parameter family is not supported by this server yet.`);
    else if (/^[a-z]+$/.test(base!) && members === '') throw badParameter(name, `'${name}' is reserved by JSON:API and not supported here; supported: sort.`);
    else throw badParameter(name, `Unknown query parameter '${name}'; supported: sort.`);
  }
  return result;
}
