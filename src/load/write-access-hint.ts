import type { Refusal } from './http.js';

// Virtuoso's anonymous endpoints and the one that asks for a login instead. Its /sparql never
// answers 401: it runs every request as the user "SPARQL", so credentials given for it are never
// sent, and a write fails with SR186 (Update) or SR575 (Graph Store) whatever the loader is told.
const VIRTUOSO_ANONYMOUS = /\/(sparql|sparql-graph-crud)\/?$/;
const VIRTUOSO_ANSWER = /\bVirtuoso\b|\bSR(186|575)\b/;

/**
 * What to do about a refusal that is about permissions, as a parenthesised hint to append to the
 * error (with its leading space), or `''` when the refusal is about something else. On Virtuoso's
 * anonymous `/sparql` (or `/sparql-graph-crud`) it names the endpoint that does take a login,
 * `…/sparql-auth`, since credentials on `/sparql` are never asked for.
 *
 * @example writeAccessHint('http://h:8890/sparql', { status: 500, statusText: '', body: 'Virtuoso 42000 Error SR186:SECURITY: …', attempts: 1 })
 * // → ' (Virtuoso's /sparql takes no writes … load through http://h:8890/sparql-auth with --user dba --password … )'
 */
export function writeAccessHint(url: string, refusal: Refusal): string {
  const denied = refusal.status === 401 || refusal.status === 403 || /SECURITY|permission/i.test(refusal.body);
  if (!denied) return '';
  const target = new URL(url);
  target.search = '';
  target.username = '';
  target.password = '';
  if (refusal.status !== 401 && VIRTUOSO_ANSWER.test(refusal.body)) {
    if (VIRTUOSO_ANONYMOUS.test(target.pathname)) {
      const path = target.pathname.replace(/\/$/, '');
      target.pathname = path.replace(VIRTUOSO_ANONYMOUS, '/sparql-auth');
      return (
        ` (Virtuoso's ${path.slice(path.lastIndexOf('/'))} takes no writes from anonymous users and never asks for a login:` +
        ` load through --endpoint ${target.href} with --user dba --password <the dba password>,` +
        ' or let anonymous users write: GRANT SPARQL_UPDATE TO "SPARQL" (in isql, as dba))'
      );
    }
    return ' (this Virtuoso user may not write: log in as dba, or GRANT SPARQL_UPDATE TO the user (in isql, as dba))';
  }
  if (refusal.status === 401) return ' (the store asks for a login: give --user and --password, and check them)';
  return ' (the store needs write access: a login that may write (--user/--password), or an endpoint that takes updates)';
}
