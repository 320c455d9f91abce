/**
 * A search snippet as plain text: stored messages are Markdown (answers with code fences, `$…$`
 * formulas, links, emphasis), and a result row shows words, not their markup. The snippet's parts
 * before, in and after the match are cleaned apart, so the highlight stays on the matched words.
 */
export function plainSnippetText(text: string): string {
  return (
    text
      // Fence lines (```ts, ~~~) and inline code ticks.
      .replace(/(^|\n)\s*(```|~~~)[^\n]*/g, '$1')
      .replace(/`+/g, '')
      // Formulas: $$…$$, $…$ (not a price: no space just inside), \( \) and \[ \].
      .replace(/\$\$([\s\S]*?)\$\$/g, '$1')
      .replace(/\$(?!\s)([^$\n]+?)(?<!\s)\$/g, '$1')
      .replace(/\\[()[\]]/g, '')
      // Images and links keep their text.
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      // Headings, quotes and list markers at the start of a line; table pipes.
      .replace(/(^|\n)[ \t]*(#{1,6}|>+|[-*+]|\d+[.)])[ \t]+/g, '$1')
      .replace(/\|/g, ' ')
      // Emphasis and strike-through (a lone _ inside a word, as in snake_case, stays).
      .replace(/\*\*|__|~~|\*/g, '')
      .replace(/\s+/g, ' ')
  );
}

/** The snippet of a message hit, cleaned, in three parts: before the match, the match, after it. */
export function plainSnippet(hit: { snippet: string; matchStart: number; matchLength: number }): [string, string, string] {
  const end = hit.matchStart + hit.matchLength;
  return [plainSnippetText(hit.snippet.slice(0, hit.matchStart)), plainSnippetText(hit.snippet.slice(hit.matchStart, end)), plainSnippetText(hit.snippet.slice(end))];
}
