import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import type { RequestHandler } from 'express';
import type { Dataset } from '../dataset.js';
import { JSON_API } from '../request/media-types.js';
import { type StaticBody, safeDecode, sendStatic, serverUrl } from './api-description.js';
import { entityTag } from './conditional.js';
import { parsedTarget } from './parsed-target.js';

/** `/docs`, `/scalar.js`, and both under `/api/<dataset>`. */
const DOCS_PATH = /^(?:\/api\/([^/]+))?\/(docs|scalar\.js)$/;

/**
 * The page only loads what this server serves; Scalar injects its styles (`<style>` elements and
 * style attributes, hence `'unsafe-inline'` for styles only) and fetches the description and the
 * requests a reader tries from the API's own origin (or its link base's).
 */
function contentSecurityPolicy(initScript: string, apiOrigin: string | undefined): string {
  const scriptHash = createHash('sha256').update(initScript).digest('base64');
  return [
    "default-src 'none'",
    `script-src 'self' 'sha256-${scriptHash}'`,
    "style-src 'self' 'unsafe-inline'",
    `connect-src 'self'${apiOrigin ? ` ${apiOrigin}` : ''}`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The page of one dataset, and its Content-Security-Policy. */
interface DocsPage extends StaticBody {
  readonly csp: string;
}

/**
 * The docs page of a dataset: Scalar's API reference pointed at the dataset's `openapi.json`. Its
 * URLs are relative (`scalar.js`, `openapi.json` beside the page), so it works behind a proxy that
 * adds a path prefix. Scalar's own fonts, telemetry and AI agent, which would call its servers, are off.
 */
function docsPage(dataset: Dataset, isDefault: boolean): DocsPage {
  const configuration = {
    url: 'openapi.json',
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    hideClientButton: false,
    documentDownloadType: 'json',
    operationTitleSource: 'summary',
    showDeveloperTools: 'never',
  };
  const initScript = `Scalar.createApiReference('#app', ${JSON.stringify(configuration)});`;
  const title = `${dataset.name}: API reference`.replace(/[<>&"]/g, '');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="app"></div>
<script src="scalar.js"></script>
<script>${initScript}</script>
</body>
</html>
`;
  const server = serverUrl(dataset, isDefault);
  const apiOrigin = /^https?:\/\//.test(server) ? new URL(server).origin : undefined;
  const body = Buffer.from(html);
  return {
    body,
    etag: entityTag(body),
    contentType: 'text/html; charset=utf-8',
    cacheControl: 'no-cache',
    csp: contentSecurityPolicy(initScript, apiOrigin),
  };
}

/** Scalar's standalone bundle, from the package (no CDN), read and compressed on first use. */
let scalarBundle: { plain: StaticBody; gzip: StaticBody } | undefined;
function scalar(): { plain: StaticBody; gzip: StaticBody } {
  if (!scalarBundle) {
    const file = createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js');
    const body = readFileSync(file);
    const common = { contentType: 'text/javascript; charset=utf-8', cacheControl: 'public, max-age=86400' };
    const gzip = gzipSync(body);
    scalarBundle = {
      plain: { ...common, body, etag: entityTag(body) },
      gzip: { ...common, body: gzip, etag: entityTag(gzip) },
    };
  }
  return scalarBundle;
}

/**
 * `GET /docs` (the default dataset) and `/api/<dataset>/docs`: the docs page, and `scalar.js` beside
 * it. `docs` is a valid type name, so the page is content-negotiated: a request that prefers HTML
 * (a browser's) gets the page; when the dataset has a type named `docs`, every other request
 * (JSON:API's Accept, `*` `/` `*`) goes on to that type's collection, and without one the page is
 * the answer to any Accept that takes HTML.
 *
 * @example app.use(docsPageHandler(datasets, defaultDataset))
 */
export function docsPageHandler(datasets: ReadonlyMap<string, Dataset>, defaultDataset: Dataset): RequestHandler {
  const pages = new Map([...datasets.values()].map((d) => [d, docsPage(d, d === defaultDataset)]));
  return (req, res, next) => {
    const match = req.method === 'GET' || req.method === 'HEAD' ? DOCS_PATH.exec(parsedTarget(req).path) : null;
    const dataset = match && (match[1] === undefined ? defaultDataset : datasets.get(safeDecode(match[1])));
    if (!match || !dataset) return next();
    if (match[2] === 'scalar.js') {
      const bundle = scalar();
      res.vary('Accept-Encoding');
      if (req.acceptsEncodings('gzip', 'identity') === 'gzip') {
        res.setHeader('Content-Encoding', 'gzip');
        sendStatic(req, res, bundle.gzip);
      } else sendStatic(req, res, bundle.plain);
      return;
    }
    const html = dataset.mapping.types.has('docs')
      ? req.accepts([JSON_API, 'text/html'])
      : req.accepts(['text/html', JSON_API]);
    res.vary('Accept');
    if (html !== 'text/html') return next();
    const page = pages.get(dataset)!;
    res.setHeader('Content-Security-Policy', page.csp);
    sendStatic(req, res, page);
  };
}
