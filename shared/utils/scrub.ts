/**
 * What an error report must not carry (the client error log): e-mail addresses, tokens and keys, and
 * the query strings and fragments of addresses (they hold search terms, temp keys, tokens). Applied by
 * the client before sending and by the server again before storing.
 */
export function scrubText(text: string): string {
  return (
    text
      // Query string and fragment of any address: keep the path.
      .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s?#'"()<>]*)[?#][^\s'"()<>]*/gi, '$1')
      .replace(/[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}/gi, '[email]')
      .replace(/\bBearer\s+[A-Za-z0-9._~+/=-]+/gi, 'Bearer [token]')
      // JWTs, then any long run of key-like characters (hex ids, API keys, base64 tokens).
      .replace(/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, '[token]')
      .replace(/\b(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{24,}\b/g, '[token]')
  );
}

/** A page's path only: no origin, query string or fragment. */
export function pathOnly(url: string): string {
  const noTail = url.split(/[?#]/, 1)[0] ?? '';
  return noTail.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '') || '/';
}
