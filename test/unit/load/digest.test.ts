import { describe, expect, test } from 'vitest';
import { DigestAuth, parseDigestChallenge } from '../../../src/load/digest.js';

describe('Digest auth (RFC 7616)', () => {
  const field = (header: string, name: string) => new RegExp(`${name}="?([^",]+)`).exec(header)?.[1];

  test('RFC 2617 §3.5 example: MD5, qop=auth', () => {
    const challenge = parseDigestChallenge(
      'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    )!;
    const header = new DigestAuth(challenge, 'Mufasa', 'Circle Of Life', () => '0a4f113b').authorization(
      'GET',
      '/dir/index.html',
    );
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
      const header = new DigestAuth(challenge, 'Mufasa', 'Circle of Life', cnonce).authorization(
        'GET',
        '/dir/index.html',
      );
      expect(field(header, 'response')).toBe(expected);
    }
  });

  test('finds the Digest challenge among others; counts nc up for a reused nonce', () => {
    const challenge = parseDigestChallenge(
      'Basic realm="x", Digest realm="SPARQL", nonce="n1", qop="auth", algorithm="MD5"',
    );
    expect(challenge).toMatchObject({ realm: 'SPARQL', nonce: 'n1', qop: 'auth', algorithm: 'MD5' });
    expect(parseDigestChallenge('Basic realm="x"')).toBeUndefined();
    const auth = new DigestAuth(challenge!, 'dba', 'dba');
    auth.authorization('POST', '/a');
    expect(field(auth.authorization('POST', '/a'), 'nc')).toBe('00000002');
  });
});
