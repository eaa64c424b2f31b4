// The direction of imports in src/, checked in CI (`npm run lint`). A request flows
// request → plan → sparql → store, and execute/ runs the plan and shapes the answer with shape/;
// http/ serves, cli/ starts. Each stage imports only from stages before it, never from one after.
//   foundation: errors/, rdf/ (import nothing of ours), then mapping/
//   pipeline:   request/ → plan/ → sparql/ ; store/ ; shape/ (reads plan output) ; execute/ (runs them)
//               store/probes/: the start-up questions to a store (engine check, empty types), in SPARQL
//   remembering: cache/ (response cache, window cache, hints, query memo, the freshness ledger:
//               each with what drops its entries) and live/ (deltas: what a change drops). The
//               computing stages know neither: they declare the interfaces cache/ implements
//               (KeptLists, ListHints, TemplateMemo), and the app gives them (app.ts).
//   description: openapi/ (reads the mapping and what request/ and plan/ accept; used by http/ and cli/)
//   scaffold/:  a mapping from the data (reads mapping/, store/, rdf/; used by cli/ only)
//   serving:    dataset.ts → http/ → app.ts → cli/ ; load/ is the loader, started by cli/
const layer = (name, from, forbidden, comment) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: forbidden },
});
const SERVING = '^src/(http|cli|load)/|^src/(app|dataset)\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules form no cycle, type-only imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'Every module in src/ is imported by something (or is the executable).',
      from: { orphan: true, path: '^src/', pathNot: '^src/cli/bin\\.ts$|^src/store/oxigraph-worker\\.js$|\\.d\\.ts$' },
      to: {},
    },
    layer(
      'foundation-imports-nothing-of-ours',
      '^src/(errors|rdf)/',
      '^src/(?!(errors|rdf)/)',
      'errors/ and rdf/ are leaves: every stage may use them.',
    ),
    layer(
      'mapping-below-the-pipeline',
      '^src/mapping/',
      `^src/(request|plan|sparql|store|shape|execute)/|${SERVING}`,
      'The compiled mapping is read by every stage and reads none of them.',
    ),
    layer(
      'request-before-plan',
      '^src/request/',
      `^src/(plan|sparql|store|shape|execute)/|${SERVING}`,
      'Parsing the request knows the mapping, not what comes after.',
    ),
    layer(
      'plan-before-sparql',
      '^src/plan/',
      `^src/(sparql|store|shape|execute)/|${SERVING}`,
      'The plan is pure: it names what to ask, not how.',
    ),
    layer(
      'sparql-before-store',
      '^src/sparql/',
      `^src/(store|shape|execute)/|${SERVING}`,
      'Query builders turn a plan into a sparqljs AST; they never see rows.',
    ),
    layer(
      'computing-knows-no-cache',
      '^src/(mapping|request|plan|sparql|store|shape|execute|openapi)/',
      '^src/(cache|live)/',
      'What remembers is put around the computing stages, never imported by them: they declare interfaces, the app injects cache/.',
    ),
    layer(
      'handler-calls-no-cache',
      '^src/http/json-api-handler\\.ts$',
      '^src/cache/',
      'The JSON:API handler is the uncached pipeline; the response cache is put around it (cache/cached-responses.ts).',
    ),
    layer(
      'lru-cache-in-cache-only',
      '^src/(?!(cache|live)/)',
      '(^|/)node_modules/lru-cache/',
      'Whatever keeps entries lives in cache/ (or live/), with what drops them.',
    ),
    layer(
      'cache-below-app',
      '^src/cache/',
      '^src/(live|cli|load)/|^src/app\\.ts$',
      'cache/ keeps answers and lists for the handler and the executor; live/ drops its entries, not the other way.',
    ),
    layer('live-below-app', '^src/live/', '^src/(cli|load)/|^src/app\\.ts$', 'The delta listener is built by the app.'),
    layer(
      'store-probes-ask-in-sparql',
      '^src/store/probes/',
      `^src/(request|plan|shape|execute)/|${SERVING}`,
      'The start-up probes write their questions with sparql/ and the mapping, and know no request.',
    ),
    layer(
      'store-knows-no-request',
      '^src/store/(?!probes/)',
      `^src/(mapping|request|plan|sparql|shape|execute)/|${SERVING}`,
      'A store runs query text and returns rows, whatever asked.',
    ),
    layer(
      'shape-reads-plan-output',
      '^src/shape/',
      `^src/(sparql|store|execute)/|${SERVING}`,
      'Shaping turns values and members into documents; reading rows is execute/rows.ts.',
    ),
    layer('execute-below-serving', '^src/execute/', SERVING, 'The executor runs plans for any caller.'),
    layer(
      'openapi-below-serving',
      '^src/openapi/',
      `^src/(sparql|store|shape|execute)/|${SERVING}`,
      'The OpenAPI description is a pure function of the mapping and what requests accept.',
    ),
    layer(
      'pipeline-knows-no-openapi',
      '^src/(mapping|request|plan|sparql|store|shape|execute)/|^src/dataset\\.ts$',
      '^src/openapi/',
      'The pipeline does not depend on its description.',
    ),
    layer(
      'import-mu-beside-the-mapping',
      '^src/import-mu/',
      `^src/(request|plan|sparql|store|shape|execute|load)/|${SERVING}`,
      'The mu-cl-resources importer turns a domain.json into a mapping file; it knows only the mapping.',
    ),
    layer(
      'scaffold-beside-the-pipeline',
      '^src/scaffold/',
      `^src/(request|plan|sparql|shape|execute|load|openapi|import-mu)/|${SERVING}`,
      'The scaffold reads a store through the Store interface and writes a mapping; it knows the mapping and the store only.',
    ),
    layer(
      'scaffold-for-the-cli',
      '^src/(?!(cli|scaffold)/)',
      '^src/scaffold/',
      'Only the CLI (scaffold, serve without --mapping) uses the scaffold.',
    ),
    layer(
      'import-mu-for-the-cli',
      '^src/(?!(cli|import-mu)/)',
      '^src/import-mu/',
      'Only the import-mu command uses the importer.',
    ),
    layer(
      'dataset-below-serving',
      '^src/dataset\\.ts$',
      '^src/(execute|http|cli|load)/|^src/app\\.ts$',
      'The dataset model: a mapping, a store and options.',
    ),
    layer(
      'http-below-app',
      '^src/http/',
      '^src/(cli|load)/|^src/app\\.ts$',
      'HTTP middleware does not know how the process starts.',
    ),
    layer(
      'app-below-cli',
      '^src/app\\.ts$',
      '^src/(cli|load)/',
      'createApp never listens and never reads the command line.',
    ),
    layer(
      'loader-apart',
      '^src/load/',
      '^src/(request|plan|sparql|shape|execute|http|cli)/|^src/(app|dataset)\\.ts$',
      'The loader writes files to a store; it shares only the foundation and the store helpers.',
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
    exclude: { path: '^(dist|coverage)/' },
  },
};
