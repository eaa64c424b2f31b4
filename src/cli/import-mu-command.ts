import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { convertDomain, DomainError } from '../import-mu/convert-domain.js';
import { mappingYaml } from '../import-mu/mapping-yaml.js';
import { type CliIo, line } from './io.js';

const USAGE = `Usage: sparql-jsonapi import-mu DOMAIN.json [--out mapping.yaml]

Converts a mu-cl-resources domain.json into a mapping: one type per resource (named by its path),
ids from mu:uuid, attributes with their datatypes, relationships with inverse. What can't be
converted is listed on stderr and at the top of the mapping. Without --out, the mapping goes to
stdout. domain.lisp is not read (see docs/mu-cl-resources.md). Exit codes: 0 written (even with
parts skipped), 2 an unreadable domain file or bad usage.`;

/**
 * `sparql-jsonapi import-mu DOMAIN.json [--out FILE]`: writes the mapping converted from a
 * mu-cl-resources domain.json (`import-mu/convert-domain.ts`) and reports on stderr what it
 * could not convert.
 *
 * @example await runImportMu(['config/resources/domain.json', '--out', 'mapping.yaml'], io) // 0
 */
export async function runImportMu(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: { out: { type: 'string' }, help: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    line(io.stdout, USAGE);
    return 0;
  }
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0) {
    line(
      io.stderr,
      `${file === undefined ? 'Give one domain.json file.' : `One file only; got ${positionals.length}.`}\n\n${USAGE}`,
    );
    return 2;
  }
  if (/\.lisp$/i.test(file)) {
    line(
      io.stderr,
      `import-mu: ${file}: domain.lisp is Lisp code, which this command does not evaluate; it reads domain.json only. Describe the resources in domain.json (mu-cl-resources reads either), or write the mapping by hand (docs/mu-cl-resources.md).`,
    );
    return 2;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    line(io.stderr, `import-mu: ${file}: cannot read it as JSON: ${(error as Error).message}`);
    return 2;
  }
  let conversion: ReturnType<typeof convertDomain>;
  try {
    conversion = convertDomain(raw);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    line(io.stderr, `import-mu: ${file}: not a mu-cl-resources domain.json:\n${indent(error.problems)}`);
    return 2;
  }
  const yaml = mappingYaml(conversion, file);
  if (values.out === undefined) io.stdout.write(yaml);
  else await writeFile(values.out, yaml);
  const types = Object.values(conversion.mapping.types);
  const count = (key: 'attributes' | 'relationships') =>
    types.reduce((sum, t) => sum + Object.keys(t[key] ?? {}).length, 0);
  line(
    io.stderr,
    `import-mu: ${types.length} types, ${count('attributes')} attributes, ${count('relationships')} relationships${values.out === undefined ? '' : ` written to ${values.out}`}.`,
  );
  if (conversion.skipped.length > 0)
    line(io.stderr, `import-mu: not converted (${conversion.skipped.length}):\n${indent(conversion.skipped)}`);
  return 0;
}

const indent = (lines: readonly string[]) => lines.map((l) => `  ${l}`).join('\n');
