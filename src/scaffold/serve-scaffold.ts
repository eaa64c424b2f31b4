import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join } from 'node:path';
import type { Logger } from 'pino';
import { compileMapping } from '../mapping/load-mapping.js';
import type { Mapping } from '../mapping/model.js';
import type { Store } from '../store/store.js';
import { scaffoldMapping } from './scaffold.js';
import { type DataSource, sourceDescription } from './source-description.js';

/** Where a dataset's data is, as `serve` knows it. */
export interface ServedData extends DataSource {
  /** The dataset's name, for messages. */
  readonly dataset: string;
}

/**
 * The file a scaffold for these data files is written to: `mine.mapping.yaml` beside
 * `mine.ttl`, where the user finds it and where `--mapping` will point.
 *
 * @example mappingFileFor(['data/mine.ttl']) // 'data/mine.mapping.yaml'
 */
export function mappingFileFor(files: readonly string[]): string {
  const first = files[0]!;
  return join(dirname(first), `${basename(first, extname(first))}.mapping.yaml`);
}

/**
 * The mapping `serve` uses when it is given none: scaffolded from the store, compiled as a
 * mapping file would be, and written down so the user can adjust it and serve it with
 * `--mapping`. With data files it goes beside the first (`mine.mapping.yaml`), unless that file
 * exists (it may be the user's work: it is never overwritten) or can't be written; otherwise,
 * and for an endpoint, to a fresh temporary folder. The log says where.
 *
 * @example const mapping = await scaffoldForServe(store, { dataset: 'default', data: ['mine.ttl'] }, logger)
 */
export async function scaffoldForServe(store: Store, served: ServedData, logger: Logger): Promise<Mapping> {
  const description = sourceDescription(served);
  const started = performance.now();
  const { yaml, mapping, scaffold } = await scaffoldMapping(store, {
    ...(served.data && { files: served.data }),
    description,
  });
  const file = await writeBeside(served.data, yaml, logger);
  const compiled = compileMapping(mapping, file);
  logger.info(
    {
      mapping: file,
      types: scaffold.types.map((t) => `${t.name} (${t.members})`),
      ms: Math.round(performance.now() - started),
    },
    `no --mapping: serving a mapping scaffolded from the data, written to ${file}; adjust it and serve it with --mapping ${file}`,
  );
  return compiled;
}

async function writeBeside(files: readonly string[] | undefined, yaml: string, logger: Logger): Promise<string> {
  if (files?.length) {
    const beside = mappingFileFor(files);
    try {
      await writeFile(beside, yaml, { flag: 'wx' }); // wx: never over a file that exists
      return beside;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      logger.info(
        { file: beside },
        code === 'EEXIST'
          ? `${beside} exists and is left as it is (serve it with --mapping ${beside}); the new scaffold goes to a temporary file`
          : `cannot write ${beside} (${code ?? (error as Error).message}); the scaffold goes to a temporary file`,
      );
    }
  }
  const file = join(await mkdtemp(join(tmpdir(), 'sparql-jsonapi-scaffold-')), 'mapping.yaml');
  await writeFile(file, yaml);
  return file;
}
