/**
 * The path and query string of a request target as the client sent it (origin-form, RFC 9112
 * §3.2.1): split at the first `?`, never parsed as a URL, so that `//x/concepts` stays a path
 * (a URL parser reads `x` as a host) and no target can make parsing throw.
 *
 * @example requestTarget('/concepts?sort=-label') // { path: '/concepts', query: 'sort=-label' }
 */
export function requestTarget(target: string): { readonly path: string; readonly query: string } {
  const mark = target.indexOf('?');
  return mark < 0 ? { path: target, query: '' } : { path: target.slice(0, mark), query: target.slice(mark + 1) };
}
