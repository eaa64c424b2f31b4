/**
 * Big vocabularies stay usable: the OpenAPI description of each real dataset's scaffolded mapping
 * (test/support/real-datasets.ts) is valid, under 1 MB, and grows with the fields rather than
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
        const plan = { ...DEFAULT_DATASET_OPTIONS, explain: true };
        const document: any = openApiDocument(mapping, {
          dataset: name,
          serverUrl: '/',
          plan,
          explain: true,
          root: true,
        });
        const bytes = Buffer.byteLength(JSON.stringify(document));
        expect(bytes, `${name}: ${mapping.types.size} types`).toBeLessThan(1_000_000);
        const result = await validate(structuredClone(document));
        expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
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
