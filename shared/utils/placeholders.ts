/**
 * The {{name}} placeholders of a translated string (i18next's interpolation), sorted, without
 * repeats: an operator's override must keep the built-in string's, or the value would go missing.
 */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*-?\s*([^{}\s,]+)[^{}]*\}\}/g)].map((m) => m[1]!))].sort();
}
