import { describe, expect, it } from 'vitest';
import { forwardedBase } from '../../../src/http/public-base.js';

describe('forwardedBase: the base a trusted proxy gives, strictly read', () => {
  it.each([
    [{ forwarded: 'for=192.0.2.1;proto=https;host=api.example.org' }, 'https://api.example.org'],
    [{ forwarded: 'proto=https;host="api.example.org:8443"' }, 'https://api.example.org:8443'],
    [{ forwarded: 'proto=https;host=API.Example.org:443' }, 'https://api.example.org'],
    [{ forwarded: 'host=a.example, host=b.example' }, 'http://a.example'],
    [{ forwarded: 'proto=http;host="[2001:db8::1]:8080"' }, 'http://[2001:db8::1]:8080'],
    [{ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.example.org' }, 'https://api.example.org'],
    [{ 'x-forwarded-proto': 'https, http', 'x-forwarded-host': 'a.example, b.example' }, 'https://a.example'],
    [{ 'x-forwarded-host': 'api.example.org', 'x-forwarded-prefix': '/v1/' }, 'http://api.example.org/v1'],
    [
      { forwarded: 'proto=https;host=api.example.org', 'x-forwarded-prefix': '/data/api' },
      'https://api.example.org/data/api',
    ],
  ])('%j → %s', (headers, base) => {
    expect(forwardedBase(headers, 'http')).toBe(base);
  });

  it('the connection tells the scheme when no header does', () => {
    expect(forwardedBase({ 'x-forwarded-host': 'api.example.org' }, 'https')).toBe('https://api.example.org');
  });

  it.each([
    [{}],
    [{ forwarded: 'for=192.0.2.1' }],
    [{ forwarded: 'proto=https;host=evil.example/path' }],
    [{ forwarded: 'proto=https;host=evil.example?x' }],
    [{ forwarded: 'proto=javascript;host=a.example' }],
    [{ forwarded: 'host=a.example;;' }],
    [{ forwarded: 'host=user@a.example' }],
    [{ forwarded: 'host="a.example"x' }],
    [{ 'x-forwarded-host': 'a.example', 'x-forwarded-proto': 'ftp' }],
    [{ 'x-forwarded-host': 'a b.example' }],
    [{ 'x-forwarded-host': '-a.example' }],
    [{ 'x-forwarded-host': 'a.example', 'x-forwarded-prefix': 'v1' }],
    [{ 'x-forwarded-host': 'a.example', 'x-forwarded-prefix': '/v1?x=1' }],
    [{ 'x-forwarded-host': 'a.example', 'x-forwarded-prefix': '/a/../b%zz' }],
    [{ 'x-forwarded-host': 'a.example', 'x-forwarded-prefix': '//evil.example' }],
  ])('%j → none (the static base applies)', (headers) => {
    expect(forwardedBase(headers, 'http')).toBeUndefined();
  });
});
