/**
 * Table rows for `it.each(...)('%s', (title, row) => …)`, each titled in full: a `$field` in an
 * `it.each` title is cut at 40 characters, which makes long row names and paths unreadable.
 *
 * @example it.each(titled(ROWS, (row) => row.name))('%s', (_, { input, expected }) => …)
 */
export function titled<T>(rows: readonly T[], title: (row: T) => string): [string, T][] {
  return rows.map((row) => [title(row), row]);
}
