import { parseArgs } from 'node:util';
import { DEFAULT_DATASET_OPTIONS } from '../dataset.js';
import { serverUrl } from '../http/api-description.js';
import { loadMapping } from '../mapping/load-mapping.js';
import { openApiDocument } from '../openapi/openapi-document.js';
import { type CliIo, line } from './io.js';

const USAGE = `Usage: sparql-jsonapi openapi --mapping FILE [--dataset NAME] [--link-base URL]

Prints the OpenAPI 3.1 description of the mapping's JSON:API (what GET /openapi.json serves),
for client code generation (openapi-typescript). Page sizes and limits are the defaults.
  --mapping FILE     mapping file (YAML or JSON)
  --dataset NAME     the dataset's name, for the title (default: default)
  --link-base URL    where the API is served, as serve's --link-base (the servers entry; default /)`;

/**
 * `sparql-jsonapi openapi`: the description `/openapi.json` serves for a mapping, on stdout.
 * Exit codes: 0 printed, 2 bad usage or an invalid mapping (main prints the mapping's problems).
 *
 * @example await runOpenapi(['--mapping', 'mappings/sample.yaml'], io) // 0, the JSON on io.stdout
 */
export async function runOpenapi(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      mapping: { type: 'string' },
      dataset: { type: 'string' },
      'link-base': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    line(io.stdout, USAGE);
    return 0;
  }
  if (!values.mapping) {
    line(io.stderr, `sparql-jsonapi openapi: --mapping is required.\n\n${USAGE}`);
    return 2;
  }
  const mapping = await loadMapping(values.mapping);
  const dataset = values.dataset ?? 'default';
  const document = openApiDocument(mapping, {
    dataset,
    serverUrl: serverUrl({ name: dataset, linkBase: values['link-base'] ?? '' }, { isDefault: true }),
    plan: DEFAULT_DATASET_OPTIONS,
    root: true,
  });
  line(io.stdout, JSON.stringify(document, null, 2));
  return 0;
}
