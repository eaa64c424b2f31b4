import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { LoadError } from '../../../src/load/http.js';
import { checkFiles, DEFAULT_GRAPH, syntaxMessage } from '../../../src/load/source.js';

async function files(contents: Record<string, string>): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'load-source-'));
  return Promise.all(
    Object.entries(contents).map(async ([name, text]) => {
      await writeFile(join(dir, name), text);
      return join(dir, name);
    }),
  );
}

describe('checkFiles: every file parsed before anything is sent', () => {
  test('counts the triples per target graph, in the order first seen', async () => {
    const [trig, nt] = await files({
      'a.trig':
        '<http://g/1> { <http://s> <http://p> 1, 2 . }\n<http://s> <http://p> 3 .\n<http://g/2> { <http://s> <http://p> 4 }',
      'b.nt': '<http://s> <http://p> "x" .\n',
    });
    const checked = await checkFiles([trig!, nt!], undefined);
    expect([...checked.graphs]).toEqual([
      ['http://g/1', 2],
      [DEFAULT_GRAPH, 2],
      ['http://g/2', 1],
    ]);
    expect(checked.triples).toBe(5);
    expect((await checkFiles([trig!, nt!], 'http://target')).graphs).toEqual(new Map([['http://target', 5]]));
  });

  test('keeps the triples, ready to send, while they fit in keepChars', async () => {
    const [a, b] = await files({
      'a.ttl': '<http://s> <http://p> [ <http://p> "x" ] .',
      'b.nt': '_:x <http://p> "y" .\n<http://s> <http://p> "z" .\n',
    });
    const checked = await checkFiles([a!, b!], 'http://g', { keepChars: 1_000 });
    expect(checked.kept).toEqual([
      [
        // n3 emits the inner triple of [ … ] first
        { graph: 'http://g', line: '_:f0b0 <http://p> "x" .\n', blanks: ['f0b0'] },
        { graph: 'http://g', line: '<http://s> <http://p> _:f0b0 .\n', blanks: ['f0b0'] },
      ],
      [
        { graph: 'http://g', line: '_:f1b0 <http://p> "y" .\n', blanks: ['f1b0'] },
        { graph: 'http://g', line: '<http://s> <http://p> "z" .\n' },
      ],
    ]);
    expect((await checkFiles([a!, b!], 'http://g', { keepChars: 60 })).kept).toBeUndefined();
    expect((await checkFiles([a!, b!], 'http://g')).kept).toBeUndefined();
  });

  test('a syntax error names the file and the line; a blank graph name needs --graph', async () => {
    const [good, bad, blank] = await files({
      'good.nt': '<http://s> <http://p> <http://o> .\n',
      'bad.ttl': '@prefix x: <http://x/> .\nx:s x:p x:o .\nx:s x:p .\n',
      'blank.nq': '<http://s> <http://p> <http://o> _:g .\n',
    });
    await expect(checkFiles([good!, bad!], undefined)).rejects.toThrow(
      new LoadError(`${bad}:3: Expected entity but got .`),
    );
    await expect(checkFiles([blank!], undefined)).rejects.toThrow('Graph name');
    expect((await checkFiles([blank!], 'http://g')).triples).toBe(1);
  });

  test('stops when `stop` is aborted', async () => {
    const [nt] = await files({ 'many.nt': '<http://s> <http://p> <http://o> .\n'.repeat(10) });
    const stop = new AbortController();
    stop.abort('stopped');
    await expect(checkFiles([nt!], undefined, { stop: stop.signal })).rejects.toBe('stopped');
  });

  test('syntaxMessage: file:line: message, without n3\'s own "on line N."', () => {
    expect(syntaxMessage('f.nt', Object.assign(new Error('Unexpected "x" on line 7.'), { context: { line: 7 } }))).toBe(
      'f.nt:7: Unexpected "x"',
    );
    expect(syntaxMessage('f.nt', new Error('Unexpected "x" on line 9.'))).toBe('f.nt:9: Unexpected "x"');
    expect(syntaxMessage('f.nt', new Error('EISDIR'))).toBe('f.nt: EISDIR');
  });
});
