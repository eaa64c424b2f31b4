import { describe, expect, it } from 'vitest';
import { parseBenchOptions, USAGE } from '../../bench/options.js';

describe('parseBenchOptions', () => {
  it('defaults to every size and store, 10 and 50 connections', () => {
    expect(parseBenchOptions([])).toMatchObject({
      sizes: ['10k', '100k', '1m'],
      stores: ['embedded', 'virtuoso'],
      storesExplicit: false,
      smoke: false,
      connections: [10, 50],
      durationSeconds: 10,
    });
  });

  it('takes repeated and comma-separated values, in the order given, once each', () => {
    expect(parseBenchOptions(['--size', '100k,10k', '--size', '100K', '--store', 'virtuoso'])).toMatchObject({
      sizes: ['100k', '10k'],
      stores: ['virtuoso'],
      storesExplicit: true,
    });
  });

  it('smoke: 10k, short runs, fewer URLs', () => {
    expect(parseBenchOptions(['--smoke'])).toMatchObject({
      sizes: ['10k'],
      smoke: true,
      connections: [10],
      iterations: 5,
      maxRotation: 5,
    });
  });

  it('--window-cache: the TTL the server gets (0: off); without it, the server decides', () => {
    expect(parseBenchOptions(['--window-cache', '0'])).toMatchObject({ windowCacheTtlSeconds: 0 });
    expect(parseBenchOptions(['--window-cache', '3600'])).toMatchObject({ windowCacheTtlSeconds: 3600 });
    expect(parseBenchOptions([])).not.toHaveProperty('windowCacheTtlSeconds');
    expect(parseBenchOptions(['--sort-corpus', '--types', 'concepts,trade-activities'])).toMatchObject({
      sortCorpus: true,
      corpusTypes: ['concepts', 'trade-activities'],
    });
    expect(parseBenchOptions([])).toMatchObject({ sortCorpus: false });
    expect(parseBenchOptions([])).not.toHaveProperty('corpusTypes');
  });

  it('--deltas: Virtuoso, 10 connections for 5 s after 30 sequential requests, 10 messages a second', () => {
    expect(parseBenchOptions(['--deltas', '--size', '1m'])).toMatchObject({
      deltas: true,
      sizes: ['1m'],
      stores: ['virtuoso'],
      storesExplicit: true,
      connections: [10],
      durationSeconds: 5,
      iterations: 30,
      deltaRate: 10,
    });
    expect(parseBenchOptions(['--deltas', '--delta-rate', '2.5', '--duration', '8'])).toMatchObject({
      deltaRate: 2.5,
      durationSeconds: 8,
    });
    expect(parseBenchOptions([])).toMatchObject({ deltas: false });
  });

  it('loads with `load` by default, runs both clients with issue 40’s keep-alive protocol, no peer without BENCH_PEER', () => {
    expect(parseBenchOptions([])).toMatchObject({
      loader: 'load',
      clients: ['keep-alive', 'autocannon'],
      keepAlive: { sequential: 30, connections: 10, seconds: 4 },
    });
    expect(parseBenchOptions([])).not.toHaveProperty('peer');
    expect(parseBenchOptions([], { BENCH_PEER: '  ' })).not.toHaveProperty('peer');
    expect(parseBenchOptions(['--smoke'])).toMatchObject({ keepAlive: { sequential: 5, seconds: 0.3 } });
    expect(
      parseBenchOptions(['--loader', 'bulk', '--clients', 'keep-alive', '--keep-alive-seconds', '6'], {
        BENCH_PEER: './start {port} {endpoint} {graph}',
      }),
    ).toMatchObject({
      loader: 'bulk',
      clients: ['keep-alive'],
      keepAlive: { seconds: 6 },
      peer: './start {port} {endpoint} {graph}',
    });
  });

  it('documents every option in its help text', () => {
    for (const option of [
      '--loader',
      '--clients',
      '--keep-alive-seconds',
      'BENCH_PEER',
      '{port}',
      '{endpoint}',
      '{graph}',
    ])
      expect(USAGE).toContain(option);
  });

  it('10m: only when named, and on Virtuoso only', () => {
    expect(parseBenchOptions([])).toMatchObject({ sizes: ['10k', '100k', '1m'] });
    expect(parseBenchOptions(['--size', '10m'])).toMatchObject({ sizes: ['10m'], stores: ['virtuoso'] });
  });

  it('--scaling-chart: the result files to draw, Virtuoso unless --store says otherwise', () => {
    const files = [
      'bench/results/latest-100k.json',
      'bench/results/2026-11-27-1m.json',
      'bench/results/2026-11-27-10m.json',
    ];
    expect(parseBenchOptions(['--scaling-chart', ...files])).toEqual({ scalingChart: files, store: 'virtuoso' });
    expect(parseBenchOptions(['a.json', '--store', 'embedded', '--scaling-chart', 'b.json'])).toEqual({
      scalingChart: ['a.json', 'b.json'],
      store: 'embedded',
    });
  });

  it.each([
    {
      argv: ['latest-1m.json'],
      message: /unexpected argument 'latest-1m.json' \(result files go after --scaling-chart\)/,
    },
    {
      argv: ['--scaling-chart', 'a.json'],
      message: /--scaling-chart: expected two result files or more \(one per size\), got 1/,
    },
    {
      argv: ['--scaling-chart', 'a.json', 'scaling.svg'],
      message: /expected result files \(\.json\), got 'scaling\.svg'/,
    },
    { argv: ['--scaling-chart', 'a.json', 'b.json', '--size', '10m'], message: /runs nothing: it takes no --size/ },
    { argv: ['--scaling-chart', 'a.json', 'b.json', '--smoke'], message: /it takes no --smoke/ },
    { argv: ['--scaling-chart', 'a.json', 'b.json', '--store', 'virtuoso,embedded'], message: /draws one store/ },
    {
      argv: ['--scaling-chart', 'a.json', 'b.json', '--store', 'fuseki'],
      message: /--store: expected one of embedded, virtuoso, got 'fuseki'/,
    },
    { argv: ['--deltas', '--store', 'embedded'], message: /--deltas runs on Virtuoso only/ },
    { argv: ['--size', '1m,10m', '--store', 'virtuoso,embedded'], message: /--size 10m runs on Virtuoso only/ },
    { argv: ['--deltas', '--delta-rate', '0'], message: /--delta-rate: expected messages a second/ },
    { argv: ['--window-cache=-1'], message: /--window-cache: expected seconds \(0 turns the cache off\), got '-1'/ },
    { argv: ['--window-cache', 'on'], message: /--window-cache: expected seconds/ },
    { argv: ['--window-cache', ''], message: /--window-cache: expected seconds/ },
    { argv: ['--size', '5m'], message: /--size: expected one of 10k, 100k, 1m, 10m, got '5m'/ },
    { argv: ['--store', 'fuseki'], message: /--store: expected one of embedded, virtuoso/ },
    { argv: ['--smoke', '--size', '1m'], message: /--smoke runs the 10k dataset only/ },
    { argv: ['--duration', '0'], message: /--duration/ },
    { argv: ['--connections', '10,x'], message: /--connections/ },
    { argv: ['--iterations', '2.5'], message: /--iterations/ },
    { argv: ['--sizes', '10k'], message: /Unknown option '--sizes'/ },
    { argv: ['--loader', 'ttlp'], message: /--loader: expected one of load, bulk, got 'ttlp'/ },
    { argv: ['--clients', 'wrk'], message: /--clients: expected one or more of keep-alive, autocannon/ },
    { argv: ['--clients', ','], message: /--clients: expected one or more/ },
    { argv: ['--keep-alive-seconds', '0'], message: /--keep-alive-seconds: expected seconds/ },
  ])('refuses $argv', ({ argv, message }) => {
    const parsed = parseBenchOptions(argv);
    expect(typeof parsed).toBe('string');
    expect(parsed).toMatch(message);
  });
});
