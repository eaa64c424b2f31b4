import { describe, expect, test } from 'vitest';
import { LoadError } from '../../../src/load/http.js';
import { redactCredentials, splitCredentials } from '../../../src/load/redact.js';

describe('credentials in URLs', () => {
  test('splitCredentials: the URL without user:password, and them, percent-decoded', () => {
    expect(splitCredentials('http://dba:p%40ss%3Aw@h:8890/sparql-auth?x=1')).toEqual({
      url: 'http://h:8890/sparql-auth?x=1',
      credentials: { user: 'dba', password: 'p@ss:w' },
    });
    expect(splitCredentials('http://h/sparql')).toEqual({ url: 'http://h/sparql' });
    expect(splitCredentials('http://user@h/sparql')).toEqual({
      url: 'http://h/sparql',
      credentials: { user: 'user', password: '' },
    });
    expect(splitCredentials('not a url, with http://a:b@h/x')).toEqual({ url: 'not a url, with http://***@h/x' });
  });

  test('redactCredentials: every URL in a text, whatever its scheme; other @ left alone', () => {
    expect(
      redactCredentials('fetch http://u:secret@h/sparql failed; see https://x:y@h2:1/a and mail me@example.org'),
    ).toBe('fetch http://***@h/sparql failed; see https://***@h2:1/a and mail me@example.org');
    expect(redactCredentials('"http://u:secret@h"')).toBe('"http://***@h"');
  });

  test('a LoadError never carries them', () => {
    expect(new LoadError('Could not reach http://dba:dba@h/sparql').message).toBe(
      'Could not reach http://***@h/sparql',
    );
  });
});
