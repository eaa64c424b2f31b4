import { describe, expect, it } from 'vitest';
import { JsonApiError } from '../../../src/errors/json-api-error.js';
import { negotiate } from '../../../src/request/negotiate.js';

function thrown(fn: () => unknown): JsonApiError | undefined {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(JsonApiError);
    return error as JsonApiError;
  }
  return undefined;
}

describe('negotiate: requests the server answers', () => {
  it.each<{ accept: string | undefined; contentType?: string | undefined }>([
    { accept: undefined },
    { accept: '' },
    { accept: '   ' },
    { accept: 'application/vnd.api+json' },
    { accept: 'APPLICATION/VND.API+JSON' },
    { accept: '*/*' },
    { accept: 'application/json' },
    { accept: 'application/*' },
    { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8' },
    { accept: 'application/vnd.api+json; profile="http://x/y"' },
    { accept: 'application/vnd.api+json; profile="http://x/a http://x/b"' },
    { accept: 'application/vnd.api+json; ext=""' },
    { accept: 'application/vnd.api+json;q=0.5' },
    // One clean instance is enough; instances with other parameters are ignored.
    { accept: 'application/vnd.api+json; charset=utf-8, application/vnd.api+json' },
    { accept: 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic", application/vnd.api+json' },
    // A comma inside a quoted value does not split the header.
    { accept: 'application/vnd.api+json; profile="http://x/a,http://x/b"' },
    // A malformed entry matches nothing, the others still count.
    { accept: 'garbage, application/vnd.api+json' },
    { accept: 'text/plain, application/json' },
    { accept: undefined, contentType: 'application/vnd.api+json' },
    { accept: undefined, contentType: 'application/vnd.api+json; profile="http://x/y"' },
    { accept: undefined, contentType: 'application/json' },
    { accept: undefined, contentType: 'application/json; charset=utf-8' },
    { accept: undefined, contentType: '' },
    { accept: 'application/vnd.api+json', contentType: 'text/plain' },
  ])('Accept: $accept, Content-Type: $contentType', ({ accept, contentType }) => {
    expect(thrown(() => negotiate(accept, contentType))).toBeUndefined();
  });
});

describe('negotiate: 406 Not Acceptable', () => {
  /** Every JSON:API instance carries a parameter other than profile (or names an extension). */
  const PARAMETERS = [
    /Every application\/vnd\.api\+json entry in Accept/,
    /only profile is supported/,
    /no extensions/,
  ];
  /** Nothing in Accept is something the server can produce. */
  const NOTHING = [/produces only application\/vnd\.api\+json/];
  it.each([
    { accept: 'application/vnd.api+json; charset=utf-8', detail: PARAMETERS },
    { accept: 'APPLICATION/VND.API+JSON; CHARSET=utf-8', detail: PARAMETERS },
    { accept: 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"', detail: PARAMETERS },
    { accept: 'application/vnd.api+json; charset=utf-8, application/vnd.api+json; version=1', detail: PARAMETERS },
    // A JSON:API instance with unsupported parameters is not rescued by a wildcard next to it.
    { accept: 'application/vnd.api+json; charset=utf-8, */*', detail: PARAMETERS },
    { accept: 'text/html', detail: [...NOTHING, /Accept was 'text\/html'/] },
    { accept: 'application/vnd.api+json;q=0', detail: [...NOTHING, /Accept was 'application\/vnd\.api\+json;q=0'/] },
    { accept: 'application/vnd.api+json; q=0.000', detail: NOTHING },
    { accept: '*/*;q=0', detail: NOTHING },
    // RFC 9110 §12.5.1: the most specific range wins, so q=0 on the JSON:API type refuses it even
    // next to */*; and the server produces nothing else.
    { accept: 'application/vnd.api+json;q=0, */*', detail: NOTHING },
    { accept: 'text/plain, application/xml', detail: [...NOTHING, /Accept was 'text\/plain, application\/xml'/] },
    { accept: 'application/vnd.api', detail: NOTHING },
    { accept: 'garbage', detail: NOTHING },
    { accept: ',', detail: NOTHING },
  ])('Accept: $accept', ({ accept, detail }) => {
    const error = thrown(() => negotiate(accept, undefined));
    expect(error?.status).toBe(406);
    expect(error!.errors).toHaveLength(1);
    expect(error!.errors[0]).toMatchObject({ status: '406', title: 'Not Acceptable', source: { header: 'Accept' } });
    for (const pattern of detail) expect(error!.errors[0]!.detail).toMatch(pattern);
  });
});

describe('negotiate: 415 Unsupported Media Type', () => {
  it.each([
    { contentType: 'application/vnd.api+json; charset=utf-8' },
    { contentType: 'Application/Vnd.Api+Json; Charset=UTF-8' },
    { contentType: 'application/vnd.api+json; ext="x"' },
    { contentType: 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"' },
    { contentType: 'application/vnd.api+json; profile="http://x/y"; version=2' },
  ])('Content-Type: $contentType', ({ contentType }) => {
    const error = thrown(() => negotiate('application/vnd.api+json', contentType));
    expect(error?.status).toBe(415);
    expect(error!.errors).toHaveLength(1);
    expect(error!.errors[0]).toMatchObject({
      status: '415',
      title: 'Unsupported Media Type',
      source: { header: 'Content-Type' },
    });
    expect(error!.errors[0]!.detail).toMatch(/only the profile parameter/);
    expect(error!.errors[0]!.detail).toContain(`got '${contentType}'`);
  });

  it('checks Content-Type before Accept', () => {
    expect(thrown(() => negotiate('text/html', 'application/vnd.api+json; charset=utf-8'))?.status).toBe(415);
  });
});

describe('negotiate: the profiles a client asks for', () => {
  const CURSOR = 'https://jsonapi.org/profiles/ethanresnick/cursor-pagination';
  it.each<{ accept: string | undefined; profiles: string[] }>([
    { accept: undefined, profiles: [] },
    { accept: '*/*', profiles: [] },
    { accept: 'application/vnd.api+json', profiles: [] },
    { accept: `application/vnd.api+json; profile="${CURSOR}"`, profiles: [CURSOR] },
    { accept: `application/vnd.api+json;profile="${CURSOR}"`, profiles: [CURSOR] },
    // A space-separated list of URIs, in order; a repeat counts once; extra spaces split nothing.
    {
      accept: `application/vnd.api+json; profile="http://x/a  ${CURSOR} http://x/a"`,
      profiles: ['http://x/a', CURSOR],
    },
    // Every instance the server may answer with counts, whatever its q.
    {
      accept: `application/vnd.api+json; profile="http://x/a", application/vnd.api+json; profile="${CURSOR}"; q=0.5`,
      profiles: ['http://x/a', CURSOR],
    },
    { accept: `text/html, application/vnd.api+json; profile="${CURSOR}", */*;q=0.1`, profiles: [CURSOR] },
    // An instance that is ignored (another parameter, an extension) asks for nothing.
    { accept: `application/vnd.api+json; profile="${CURSOR}"; charset=utf-8, application/vnd.api+json`, profiles: [] },
    {
      accept: `application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"; profile="${CURSOR}", application/vnd.api+json`,
      profiles: [],
    },
  ])('Accept: $accept', ({ accept, profiles }) => {
    expect(negotiate(accept, undefined)).toEqual({ profiles });
  });

  it("does not take profiles from Content-Type (it is about the request's body)", () => {
    expect(negotiate('application/vnd.api+json', `application/vnd.api+json; profile="${CURSOR}"`)).toEqual({
      profiles: [],
    });
  });
});
