/**
 * Big vocabularies stay usable: the OpenAPI description of each real dataset's scaffolded mapping
 * (test/support/real-datasets.ts) is valid, under 1 MB as served by default, and grows with the fields rather than
 * fields × paths: each operation refers to one `fields` parameter, whatever the number of types.
 */
import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DATASET_OPTIONS } from '../../src/dataset.js';
import { compileMapping } from '../../src/mapping/load-mapping.js';
import { openApiDocument } from '../../src/openapi/openapi-document.js';
import { scaffoldMapping } from '../../src/scaffold/scaffold.js';
import { createOxigraphStore } from '../../src/store/oxigraph-store.js';
import { REAL_DATASETS } from '../support/real-datasets.js';

describe('OpenAPI of the real datasets, scaffolded', () => {
  for (const [name, files] of Object.entries(REAL_DATASETS)) {
    it(`${name}: valid, under 1 MB, one fields parameter per operation`, async () => {
      const store = await createOxigraphStore({ files: [...files], workers: 1 });
      try {
        const { mapping: raw } = await scaffoldMapping(store, { description: name });
        const mapping = compileMapping(raw, name);
        // As served by default (explain off): under 1 MB. With explain on (opt-in), what it adds
        // (the explain-plan parameter, meta.explain, the dry plan as an alternative document)
        // grows with the types, not with the fields or the paths.
        const describe = (explain: boolean): any => {
          const plan = { ...DEFAULT_DATASET_OPTIONS, explain };
          return openApiDocument(mapping, { dataset: name, serverUrl: '/', plan, explain, root: true });
        };
        const plain = describe(false);
        const bytes = Buffer.byteLength(JSON.stringify(plain));
        expect(bytes, `${name}: ${mapping.types.size} types`).toBeLessThan(1_000_000);
        const document = describe(true);
        // A fixed part (the explain, plan-node and dry-plan schemas) and refs in each type's documents.
        const added = Buffer.byteLength(JSON.stringify(document)) - bytes;
        expect(added, `${name}: explain's bytes for ${mapping.types.size} types`).toBeLessThan(
          20_000 + 700 * mapping.types.size,
        );
        for (const described of [plain, document]) {
          const result = await validate(structuredClone(described));
          expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
        }
        for (const item of Object.values(document.paths as Record<string, { get: { parameters: unknown[] } }>)) {
          const sparse = item.get.parameters.filter((p) => JSON.stringify(p).includes('fields'));
          expect(sparse.length).toBeLessThanOrEqual(1);
        }
      } finally {
        await store.close();
      }
    }, 120_000);
  }
});
