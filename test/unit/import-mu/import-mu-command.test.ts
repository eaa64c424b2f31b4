import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { loadMapping } from '../../../src/mapping/load-mapping.js';
import { captureIo } from '../../support/cli-io.js';

const FIXTURE = 'test/fixtures/mu/domain.json';
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'import-mu-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('sparql-jsonapi import-mu', () => {
  it('writes a mapping that loads, and lists on stderr what it skipped (exit 0)', async () => {
    const out = join(dir, 'mapping.yaml');
    const io = captureIo();
    expect(await main(['import-mu', FIXTURE, '--out', out], io)).toBe(0);
    const mapping = await loadMapping(out);
    expect([...mapping.types.keys()]).toEqual(['people', 'accounts', 'books', 'libraries']);
    const stderr = io.err.join('\n');
    expect(stderr).toContain('4 types, 18 attributes, 8 relationships written to');
    expect(stderr).toContain('not converted (5)');
    expect(stderr).toContain("resources.drafts.class: 'draft:Draft'");
    expect(io.out).toEqual([]);
    expect(await readFile(out, 'utf8')).toMatch(/^# Converted from test\/fixtures\/mu\/domain\.json/);
  });

  it('writes to stdout without --out', async () => {
    const io = captureIo();
    expect(await main(['import-mu', FIXTURE], io)).toBe(0);
    expect(io.out.join('\n')).toContain('id: { predicate: mu:uuid }');
  });

  it.each([
    ['a missing file', () => join(dir, 'none.json'), 'cannot read it as JSON'],
    ['a file that is not JSON', async () => write('broken.json', '{ "resources": '), 'cannot read it as JSON'],
    ['JSON that is no domain', async () => write('list.json', '[1, 2]'), 'not a mu-cl-resources domain.json'],
    ['a domain.lisp', async () => write('domain.lisp', '(define-resource person ())'), 'reads domain.json only'],
  ])('refuses %s (exit 2)', async (_, file, message) => {
    const io = captureIo();
    expect(await main(['import-mu', await file()], io)).toBe(2);
    expect(io.err.join('\n')).toContain(message);
    expect(io.out).toEqual([]);
  });

  it('needs exactly one file (exit 2)', async () => {
    for (const argv of [['import-mu'], ['import-mu', FIXTURE, FIXTURE]]) {
      const io = captureIo();
      expect(await main(argv, io)).toBe(2);
      expect(io.err.join('\n')).toContain('Usage: sparql-jsonapi import-mu');
    }
  });
});

async function write(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}
