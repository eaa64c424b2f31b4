import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import accepts from 'accepts';
import vary from 'vary';
import type { Dataset } from '../dataset.js';
import { JSON_API } from '../request/media-types.js';
import { type DatasetRole, serverUrl, staticTarget } from './api-description.js';
import { type Representation, representBytes, sendRepresentation } from './conditional.js';
import type { Handler } from './handler.js';
import { parsedTarget } from './parsed-target.js';

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
interface DocsPage {
  readonly page: Representation;
  readonly csp: string;
}

/**
 * The docs page of a dataset: Scalar's API reference pointed at the dataset's `openapi.json`. Its
 * URLs are relative (`scalar.js`, `openapi.json` beside the page), so it works behind a proxy that
 * adds a path prefix. Scalar's own fonts, telemetry and AI agent, which would call its servers, are off.
 */
function docsPage(dataset: Dataset, role: DatasetRole): DocsPage {
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
  const server = serverUrl(dataset, role);
  const apiOrigin = /^https?:\/\//.test(server) ? new URL(server).origin : undefined;
  return {
    page: representBytes(Buffer.from(html), 'text/html; charset=utf-8'),
    csp: contentSecurityPolicy(initScript, apiOrigin),
  };
}

/** Scalar's standalone bundle, from the package (no CDN), read and compressed on first use. */
let scalarBundle: { plain: Representation; gzip: Representation } | undefined;
function scalar(): { plain: Representation; gzip: Representation } {
  if (!scalarBundle) {
    const file = createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js');
    const body = readFileSync(file);
    const contentType = 'text/javascript; charset=utf-8';
    scalarBundle = { plain: representBytes(body, contentType), gzip: representBytes(gzipSync(body), contentType) };
  }
  return scalarBundle;
}

/** The bundle changes only with the package: a day's freshness spares a browser revalidating it on every visit. */
const SCALAR_CACHE_CONTROL = 'public, max-age=86400';

/**
 * `GET /docs` (the default dataset) and `/api/<dataset>/docs`: the docs page, and `scalar.js` beside
 * it. `docs` is a valid type name, so the page is content-negotiated: a request that prefers HTML
 * (a browser's) gets the page; when the dataset has a type named `docs`, every other request
 * (JSON:API's Accept, `*` `/` `*`) goes on to that type's collection, and without one the page is
 * the answer to any Accept that takes HTML. `GET /` from a browser (an Accept that prefers HTML to
 * JSON:API) gets the default dataset's page too; any other `/` is the root document.
 *
 * @example app.use(docsPageHandler(datasets, defaultDataset))
 */
export function docsPageHandler(datasets: ReadonlyMap<string, Dataset>, defaultDataset: Dataset): Handler {
  const pages = new Map([...datasets.values()].map((d) => [d, docsPage(d, { isDefault: d === defaultDataset })]));
  return (req, res, next) => {
    const target = staticTarget(req, datasets, defaultDataset);
    if (target?.name === 'scalar.js') {
      const bundle = scalar();
      const gzip = accepts(req).encodings(['gzip', 'identity']) === 'gzip';
      if (gzip) res.setHeader('Content-Encoding', 'gzip');
      sendRepresentation(req, res, gzip ? bundle.gzip : bundle.plain, {
        cacheControl: SCALAR_CACHE_CONTROL,
        varyOn: ['Accept-Encoding'],
      });
      return;
    }
    // `/` is the root document (root-document.ts), or, for a browser, the default dataset's page.
    const root =
      target === undefined && (req.method === 'GET' || req.method === 'HEAD') && parsedTarget(req).path === '/';
    if (target?.name !== 'docs' && !root) return next();
    const html =
      root || target?.dataset.mapping.types.has('docs')
        ? accepts(req).types([JSON_API, 'text/html'])
        : accepts(req).types(['text/html', JSON_API]);
    vary(res, 'Accept'); // the collection, when the page is not chosen, is negotiated on Accept too
    if (html !== 'text/html') return next();
    const { page, csp } = pages.get(target?.dataset ?? defaultDataset)!;
    res.setHeader('Content-Security-Policy', csp);
    sendRepresentation(req, res, page, { cacheControl: 'no-cache', varyOn: ['Accept'] });
  };
}
