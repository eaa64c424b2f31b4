import { parse as parseMediaType } from 'content-type';
import { JsonApiError } from '../errors/json-api-error.js';

import { JSON_API } from './media-types.js';

/** Media type parameters JSON:API 1.1 allows; this server supports no extension, so `ext` only if empty. */
const ALLOWED_PARAMETERS = new Set(['profile', 'ext']);

/** What content negotiation settles for the response. */
export interface Negotiated {
  /**
   * The profiles the client asked the server to apply (the `profile` parameters of the JSON:API
   * entries of Accept it may answer with), in order, without repeats. The server applies those it
   * knows and ignores the others, as the spec says.
   */
  readonly profiles: readonly string[];
}

/**
 * Applies JSON:API 1.1's content negotiation rules to a request's `Accept` and `Content-Type`:
 * 415 when Content-Type is the JSON:API media type with parameters other than `profile` (or any
 * extension), 406 when every JSON:API entry of Accept carries such parameters, or when Accept
 * names nothing this server can produce. Otherwise it tells which profiles the client asked for.
 *
 * @example negotiate('application/vnd.api+json; profile="https://jsonapi.org/profiles/ethanresnick/cursor-pagination"', undefined)
 * // { profiles: ['https://jsonapi.org/profiles/ethanresnick/cursor-pagination'] }
 */
export function negotiate(accept: string | undefined, contentType: string | undefined): Negotiated {
  if (contentType !== undefined && contentType.trim() !== '') {
    const parsed = safeParse(contentType);
    if (parsed?.type === JSON_API && !onlyAllowed(parsed.parameters)) {
      throw new JsonApiError(
        415,
        'Unsupported Media Type',
        `Content-Type ${JSON_API} may carry only the profile parameter (this server supports no extensions); got '${contentType}'.`,
        { source: { header: 'Content-Type' } },
      );
    }
  }
  if (accept === undefined || accept.trim() === '') return { profiles: [] };
  const parsed = splitAccept(accept)
    .map(safeParse)
    .filter((entry) => entry !== undefined);
  const refused = (entry: { parameters: Record<string, string> }) => /^0(\.0*)?$/.test(entry.parameters.q ?? '');
  // `application/vnd.api+json;q=0` refuses the only type this server produces, whatever else Accept says.
  if (parsed.some((entry) => entry.type === JSON_API && refused(entry))) {
    throw new JsonApiError(
      406,
      'Not Acceptable',
      `This server produces only ${JSON_API}; Accept was '${accept}', which refuses it with q=0.`,
      { source: { header: 'Accept' } },
    );
  }
  const entries = parsed.filter((entry) => !refused(entry));
  const jsonApi = entries.filter((entry) => entry.type === JSON_API);
  const usable = jsonApi.filter((entry) => onlyAllowed(entry.parameters));
  if (jsonApi.length > 0 && usable.length === 0) {
    throw new JsonApiError(
      406,
      'Not Acceptable',
      `Every ${JSON_API} entry in Accept carries media type parameters this server does not support (only profile is supported; no extensions).`,
      { source: { header: 'Accept' } },
    );
  }
  const producible = entries.some((entry) =>
    [JSON_API, 'application/json', 'application/*', '*/*'].includes(entry.type),
  );
  if (!producible) {
    throw new JsonApiError(406, 'Not Acceptable', `This server produces only ${JSON_API}; Accept was '${accept}'.`, {
      source: { header: 'Accept' },
    });
  }
  // The parameter is a space-separated list of URIs (JSON:API 1.1, media type parameter rules).
  const profiles = usable.flatMap((entry) => (entry.parameters.profile ?? '').split(' ').filter((uri) => uri !== ''));
  return { profiles: [...new Set(profiles)] };
}

function onlyAllowed(parameters: Record<string, string>): boolean {
  return Object.entries(parameters).every(
    ([name, value]) => name === 'q' || (ALLOWED_PARAMETERS.has(name) && (name !== 'ext' || value.trim() === '')),
  );
}

/** Accept is a comma-separated list; commas inside quoted parameter values don't split it. */
function splitAccept(header: string): string[] {
  return header.match(/(?:[^,"]|"(?:[^"\\]|\\.)*")+/g) ?? [];
}

function safeParse(value: string): { type: string; parameters: Record<string, string> } | undefined {
  try {
    return parseMediaType(value.trim());
  } catch {
    return undefined; // a malformed entry matches nothing
  }
}
