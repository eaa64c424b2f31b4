import { describe, expect, it } from 'vitest';
import { runScaffold, SCAFFOLD_USAGE } from '../../../src/cli/scaffold-command.js';
import { captureIo } from '../../support/cli-io.js';
import { titled } from '../../support/titled.js';

describe('scaffold command: usage', () => {
  it('--help prints the usage and exits 0', async () => {
    const io = captureIo();
    expect(await runScaffold(['--help'], io)).toBe(0);
    expect(io.out.join('\n')).toBe(SCAFFOLD_USAGE);
  });

  it.each(
    titled(
      [
        { name: 'no data and no endpoint', args: [], message: 'give either --data FILE... or --endpoint URL' },
        {
          name: 'both',
          args: ['--data', 'x.ttl', '--endpoint', 'http://x/sparql'],
          message: 'give either --data FILE... or --endpoint URL, not both',
        },
        {
          name: 'an endpoint that is no URL',
          args: ['--endpoint', 'x/sparql'],
          message: "--endpoint: expected an http(s) URL, got 'x/sparql'",
        },
        {
          name: 'a graph that is no IRI',
          args: ['--data', 'x.ttl', '--graph', 'not an iri'],
          message: "--graph: expected an absolute IRI (http://example.org/graph), got 'not an iri'",
        },
        {
          name: 'a sample size of 0',
          args: ['--data', 'x.ttl', '--sample-size', '0'],
          message: '--sample-size: expected a whole number from 1 to 100000',
        },
        { name: 'an unknown option', args: ['--mapping', 'm.yaml'], message: "Unknown option '--mapping'" },
      ],
      (row) => row.name,
    ),
  )('%s → exit 2, the problem and the usage on stderr', async (_, { args, message }) => {
    const io = captureIo();
    expect(await runScaffold(args, io)).toBe(2);
    expect(io.err.join('\n')).toContain(message);
    expect(io.err.join('\n')).toContain(SCAFFOLD_USAGE.split('\n')[0]);
    expect(io.out).toEqual([]);
  });
});
