import { DataFactory } from 'n3';
import { describe, expect, test } from 'vitest';
import { Batch, packBlankTriples } from '../src/load/batch.js';
import { DigestAuth, parseDigestChallenge } from '../src/load/digest.js';
import { bodyExcerpt } from '../src/load/http.js';
import { BlankNodeLabels, termToNTriples } from '../src/load/ntriples.js';
import { graphUrl, guessGraphStoreUrl, insertData } from '../src/load/protocol.js';

const { namedNode, literal, blankNode } = DataFactory;

describe('Digest auth (RFC 7616)', () => {
  const field = (header: string, name: string) => new RegExp(`${name}="?([^",]+)`).exec(header)?.[1];

  test('RFC 2617 §3.5 example: MD5, qop=auth', () => {
    const challenge = parseDigestChallenge(
      'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    )!;
    const header = new DigestAuth(challenge, 'Mufasa', 'Circle Of Life', () => '0a4f113b').authorization('GET', '/dir/index.html');
    expect(field(header, 'response')).toBe('6629fae49393a05397450978507c4ef1');
    expect(field(header, 'nc')).toBe('00000001');
    expect(field(header, 'qop')).toBe('auth');
  });

  test('RFC 7616 §3.9.1 example: SHA-256 and MD5', () => {
    const params =
      'realm="http-auth@example.org", qop="auth, auth-int", nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"';
    const cnonce = () => 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ';
    for (const [algorithm, expected] of [
      ['SHA-256', '753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1'],
      ['MD5', '8ca523f5e9506fed4657c9700eebdbec'],
    ] as const) {
      const challenge = parseDigestChallenge(`Digest ${params}, algorithm=${algorithm}`)!;
      const header = new DigestAuth(challenge, 'Mufasa', 'Circle of Life', cnonce).authorization('GET', '/dir/index.html');
      expect(field(header, 'response')).toBe(expected);
    }
  });

  test('finds the Digest challenge among others; counts nc up for a reused nonce', () => {
    const challenge = parseDigestChallenge('Basic realm="x", Digest realm="SPARQL", nonce="n1", qop="auth", algorithm="MD5"');
    expect(challenge).toMatchObject({ realm: 'SPARQL', nonce: 'n1', qop: 'auth', algorithm: 'MD5' });
    expect(parseDigestChallenge('Basic realm="x"')).toBeUndefined();
    const auth = new DigestAuth(challenge!, 'dba', 'dba');
    auth.authorization('POST', '/a');
    expect(field(auth.authorization('POST', '/a'), 'nc')).toBe('00000002');
  });
});

describe('blank nodes across batches', () => {
  const t = (line: string, ...labels: string[]) => ({ graph: 'g', line, labels });

  test('a group connected through blank nodes is never split; groups are packed up to the batch size', () => {
    const batches = packBlankTriples(
      [t('a1', 'a'), t('b1', 'b'), t('a2', 'a', 'c'), t('c1', 'c'), t('d1', 'd'), t('b2', 'b')],
      3,
    );
    const contents = batches.map((b) => [...b.graphs.values()].flat().sort());
    expect(contents).toEqual([['a1', 'a2', 'c1'], ['b1', 'b2', 'd1']]);
    expect(batches.every((b) => b.hasBlankNodes)).toBe(true);
  });

  test('a group larger than the batch size goes alone', () => {
    const chain = Array.from({ length: 5 }, (_, i) => t(`l${i}`, `n${i}`, `n${i + 1}`));
    expect(packBlankTriples([t('x', 'x'), ...chain], 2).map((b) => b.size)).toEqual([1, 5]);
  });

  test('labels are renamed per file, so two files never share a node', () => {
    const a = new BlankNodeLabels('f0');
    const b = new BlankNodeLabels('f1');
    expect(termToNTriples(blankNode('x-1.'), a)).toBe('_:f0b0');
    expect(termToNTriples(blankNode('x-1.'), a)).toBe('_:f0b0');
    expect(termToNTriples(blankNode('x-1.'), b)).toBe('_:f1b0');
  });
});

describe('terms and requests', () => {
  const labels = new BlankNodeLabels('f0');
  test('N-Triples terms: escapes, language tags, datatypes, plain strings stay plain', () => {
    expect(termToNTriples(literal('a "q"\n\\ é'), labels)).toBe('"a \\"q\\"\\n\\\\ é"');
    expect(termToNTriples(literal('x', 'el'), labels)).toBe('"x"@el');
    expect(termToNTriples(literal('1', namedNode('http://www.w3.org/2001/XMLSchema#integer')), labels)).toBe(
      '"1"^^<http://www.w3.org/2001/XMLSchema#integer>',
    );
    expect(termToNTriples(literal('x', namedNode('http://www.w3.org/2001/XMLSchema#string')), labels)).toBe('"x"');
    expect(termToNTriples(namedNode('http://x/a b'), labels)).toBe('<http://x/a\\u0020b>');
  });

  test('INSERT DATA per graph; INSERT … WHERE {} when the batch has blank nodes', () => {
    const batch = new Batch();
    batch.add('http://g/1', '<s> <p> <o> .\n');
    batch.add('', '<s> <p> <o2> .\n');
    expect(insertData(batch)).toBe('INSERT DATA {\nGRAPH <http://g/1> {\n<s> <p> <o> .\n}\n<s> <p> <o2> .\n}');
    batch.hasBlankNodes = true;
    expect(insertData(batch)).toMatch(/^INSERT \{\n[\s\S]*\} WHERE \{\}$/);
  });

  test('Graph Store URLs: guessed for Virtuoso and Fuseki only; ?graph= and ?default', () => {
    expect(guessGraphStoreUrl('http://h:8890/sparql')).toBe('http://h:8890/sparql-graph-crud');
    expect(guessGraphStoreUrl('http://h:8890/sparql-auth/')).toBe('http://h:8890/sparql-graph-crud-auth');
    expect(guessGraphStoreUrl('http://h:3030/ds/query')).toBe('http://h:3030/ds/data');
    expect(guessGraphStoreUrl('http://h:7200/repositories/r')).toBeUndefined();
    expect(graphUrl('http://h/crud', 'http://g/1?a')).toBe('http://h/crud?graph=http%3A%2F%2Fg%2F1%3Fa');
    expect(graphUrl('http://h/crud', '')).toBe('http://h/crud?default');
  });

  test('error bodies: HTML stripped, cut at ~300 characters', () => {
    expect(bodyExcerpt('<html><head><title>T</title></head><body><h1>Forbidden</h1>\n<xmp>SR575</xmp></body></html>')).toBe('T Forbidden SR575');
    expect(bodyExcerpt('x'.repeat(400))).toHaveLength(301);
  });
});
