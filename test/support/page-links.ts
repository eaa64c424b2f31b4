/**
 * The links of a list that fits on one page: `first` and `last` are page 0, there is no `prev` or
 * `next`. Written out by hand (brackets percent-encoded), not by the server's link builder.
 */
export function onePageLinks(path: string, query = '') {
  const self = query === '' ? path : `${path}?${query}`;
  const first = `${path}?${query === '' ? '' : `${query}&`}page%5Bnumber%5D=0`;
  return { self, first, prev: null, next: null, last: first };
}
