/*
 * Credentials never reach the terminal: a URL such as `http://user:password@host/sparql` is split
 * into a URL without them (the one every message names) and the credentials (sent as Basic or
 * Digest, as the store asks). `fetch` refuses URLs with credentials anyway, and its error repeats
 * the URL in full.
 */

export interface Credentials {
  user: string;
  password: string;
}

/**
 * The URL without its `user:password@` part, and those credentials (percent-decoded) when it had
 * any. A string that is not a URL comes back as it was, without credentials.
 */
export function splitCredentials(url: string): { url: string; credentials?: Credentials } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url: redactCredentials(url) };
  }
  if (!parsed.username && !parsed.password) return { url };
  const credentials = { user: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) };
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.href, credentials };
}

// scheme://userinfo@ — userinfo up to the first '/', whitespace or quote, ending at the last '@' before them.
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#"'<>@]+@/gi;

/** Any text with the `user:password@` of the URLs in it replaced by `***@`. */
export function redactCredentials(text: string): string {
  return text.replace(URL_USERINFO, '$1***@');
}
