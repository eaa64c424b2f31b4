/** One member of a JSON:API `errors` array. */
export interface ErrorObject {
  status: string;
  title: string;
  detail?: string;
  source?: { parameter?: string; pointer?: string; header?: string };
  meta?: Record<string, unknown>;
}

/**
 * Every error the server answers with on purpose. The error middleware renders it as a
 * JSON:API error document; anything else that reaches the middleware becomes an opaque 500.
 */
export class JsonApiError extends Error {
  readonly status: number;
  readonly errors: readonly ErrorObject[];
  /** Extra response headers, e.g. `Allow` on a 405. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: number,
    title: string,
    detail?: string,
    extra: Omit<Partial<ErrorObject>, 'status' | 'title' | 'detail'> & {
      headers?: Record<string, string>;
      cause?: unknown;
    } = {},
  ) {
    super(detail ?? title, { cause: extra.cause });
    this.name = 'JsonApiError';
    this.status = status;
    this.headers = extra.headers ?? {};
    const error: ErrorObject = { status: String(status), title };
    if (detail !== undefined) error.detail = detail;
    if (extra.source) error.source = extra.source;
    if (extra.meta) error.meta = extra.meta;
    this.errors = [error];
  }
}

/** 400 caused by one query parameter. */
export const badParameter = (parameter: string, detail: string): JsonApiError =>
  new JsonApiError(400, 'Invalid query parameter', detail, { source: { parameter } });

export const notFound = (detail: string): JsonApiError => new JsonApiError(404, 'Not Found', detail);
