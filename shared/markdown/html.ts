const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** The language word of a fence's info string (```ts title="x"` -> "ts"), lower case. */
export function fenceLanguage(info: string): string {
  return (info.trim().split(/\s+/, 1)[0] ?? '').toLowerCase();
}
