/** The media types and profiles this server negotiates, in one place for every stage that names them. */

/** JSON:API's media type: every response's Content-Type, and what clients send in Accept. */
export const JSON_API = 'application/vnd.api+json';

/** The cursor pagination profile; a client asks for it in `Accept` to get cursor pages from the first page on. */
export const CURSOR_PAGINATION_PROFILE = 'https://jsonapi.org/profiles/ethanresnick/cursor-pagination';

/**
 * The JSON:API media type with the cursor pagination profile: the media type a cursor page is
 * negotiated as (a response cache key part) and described with.
 */
export const CURSOR_PAGINATION_MEDIA_TYPE = `${JSON_API}; profile="${CURSOR_PAGINATION_PROFILE}"`;
