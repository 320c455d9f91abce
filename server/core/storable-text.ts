/**
 * NULs dropped only: for a model's text, which arrives in pieces that may split a surrogate pair
 * (the driver stores a half left alone as U+FFFD).
 */
export const withoutNul = (s: string): string => (s.includes('\0') ? s.replaceAll('\0', '') : s);

/**
 * Text that comes from outside (a model's tool calls, a search engine's titles, a page a tool read)
 * as the database can hold it: PostgreSQL refuses NUL in text and jsonb, and a lone surrogate half
 * in jsonb. NULs are dropped and lone halves become U+FFFD, before the text is shown, so what the
 * user sees is what is stored. (Requests from users are refused for these instead: input-guard.ts.)
 */
export function storableText(s: string): string {
  // With the u flag a surrogate pair is one code point, so this matches only a half standing alone.
  return withoutNul(s).replace(/[\uD800-\uDFFF]/gu, '\uFFFD');
}
