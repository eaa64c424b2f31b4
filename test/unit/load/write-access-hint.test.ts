import { describe, expect, test } from 'vitest';
import type { Refusal } from '../../../src/load/http.js';
import { refusalError } from '../../../src/load/protocol.js';
import { writeAccessHint } from '../../../src/load/write-access-hint.js';

const refusal = (status: number, body: string, statusText = ''): Refusal => ({ status, statusText, body, attempts: 1 });
// What a stock Virtuoso 7.2 answers an anonymous write (recorded from virtuoso-t 07.20.3229).
const SR186 =
  'Virtuoso 42000 Error SR186:SECURITY: No permission to execute procedure DB.DBA.SPARQL_INSERT_DICT_CONTENT with user ID 107, group ID 107';
const SR575 =
  '<html><body><h1>HTTP/1.1 403 Forbidden</h1><xmp>SR575:SECURITY: No permission to execute DB.DBA.TTLP_RL_NEW_GRAPH as callback of rdf_load_turtle() with user ID 107, group ID 107</xmp></body></html>';

describe('writeAccessHint', () => {
  test("Virtuoso's anonymous /sparql: the /sparql-auth URL with the dba login, or the grant; never credentials on /sparql", () => {
    const hint = writeAccessHint('http://127.0.0.1:8890/sparql', refusal(500, SR186));
    expect(hint).toContain('--endpoint http://127.0.0.1:8890/sparql-auth with --user dba --password');
    expect(hint).toContain('GRANT SPARQL_UPDATE TO "SPARQL"');
    expect(hint).toContain("Virtuoso's /sparql takes no writes from anonymous users");
    // The old hint offered --user/--password for an endpoint that never asks for them.
    expect(hint).not.toMatch(/--user\/--password/);
  });

  test('the Graph Store endpoint of the same Virtuoso (403 SR575) points at the same /sparql-auth, query and login removed', () => {
    const url = 'http://me:secret@store.example:8890/sparql-graph-crud?graph=urn%3Ax';
    const hint = writeAccessHint(url, refusal(403, SR575));
    expect(hint).toContain('--endpoint http://store.example:8890/sparql-auth with --user dba');
    expect(hint).not.toContain('secret');
    expect(hint).not.toContain('graph=');
  });

  test('a path prefix in front of Virtuoso is kept; a trailing slash is not', () => {
    expect(writeAccessHint('https://h/triplestore/sparql/', refusal(500, SR186))).toContain(
      '--endpoint https://h/triplestore/sparql-auth ',
    );
  });

  test('Virtuoso /sparql-auth with a user that may not write: log in as dba or grant that user', () => {
    const hint = writeAccessHint('http://h:8890/sparql-auth', refusal(500, SR186));
    expect(hint).toMatch(/may not write: log in as dba, or GRANT SPARQL_UPDATE TO the user/);
    expect(hint).not.toContain('/sparql-auth');
  });

  test.each([
    [401, '', 'http://h/sparql-auth', /asks for a login: give --user and --password/],
    [401, 'Virtuoso', 'http://h/sparql-auth', /asks for a login/],
    [403, 'Forbidden', 'http://h:7200/repositories/r/statements', /needs write access: a login that may write/],
    [500, 'permission denied', 'http://h:3030/ds/update', /needs write access/],
  ])('other stores: %i %j on %s', (status, body, url, expected) => {
    expect(writeAccessHint(url, refusal(status, body))).toMatch(expected);
  });

  test.each([
    [400, 'Virtuoso 37000 Error SP031: SPARQL: Only named graphs can be updated'],
    [404, 'Not Found'],
    [500, 'Virtuoso 08C01 Error CL...: connection lost'],
  ])('no hint when the refusal is not about permissions: %i', (status, body) => {
    expect(writeAccessHint('http://h:8890/sparql', refusal(status, body))).toBe('');
  });

  test('refusalError appends it to the one-line message', () => {
    const error = refusalError('update', 'http://127.0.0.1:8890/sparql', refusal(500, SR186, 'SPARQL Request Failed'));
    expect(error.message).toMatch(
      /^SPARQL Update endpoint http:\/\/127\.0\.0\.1:8890\/sparql refused the data: HTTP 500 SPARQL Request Failed: Virtuoso 42000 Error SR186.* \(Virtuoso's \/sparql takes no writes .*sparql-auth.*\)$/,
    );
    expect(error.status).toBe(500);
  });
});
