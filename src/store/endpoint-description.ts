/**
 * An endpoint and its graph in words, for messages, logs and files: the URL without the
 * `user:password@` someone may have put in it (a URL that does not parse loses everything up to
 * its last `@`), then ` <graph>`.
 *
 * @example endpointDescription('http://u:pw@h/sparql', 'http://g') // 'http://h/sparql <http://g>'
 */
export function endpointDescription(endpointUrl: string, graph?: string): string {
  const shown = withoutCredentials(endpointUrl);
  return graph === undefined ? shown : `${shown} <${graph}>`;
}

function withoutCredentials(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.slice(url.lastIndexOf('@') + 1);
  }
  if (!parsed.username && !parsed.password) return url;
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}
