/** The store's answer to a request that did not succeed. */
export interface Refusal {
  status: number;
  statusText: string;
  body: string;
  /** Requests sent for it, retries included. */
  attempts: number;
}

/** First ~300 characters of an error body, with HTML tags and runs of whitespace removed. */
export function bodyExcerpt(body: string, max = 300): string {
  const text = body
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The user-facing message for a refused request. */
export function refusalMessage(what: string, url: string, refusal: Refusal): string {
  const excerpt = bodyExcerpt(refusal.body);
  const attempts = refusal.attempts > 1 ? ` (${refusal.attempts} attempts)` : '';
  return `${what} ${url} refused the data: HTTP ${refusal.status} ${refusal.statusText}${attempts}${excerpt ? `: ${excerpt}` : ''}`;
}
