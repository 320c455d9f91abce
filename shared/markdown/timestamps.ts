import type MarkdownIt from 'markdown-it';
import type { StateInline, Token } from 'markdown-it';
import { escapeHtml } from './html.ts';

/** On a video timestamp of an answer: its seconds (the React layer seeks the video on a click). */
export const TIMESTAMP_ATTR = 'data-md-seconds';

/** [mm:ss], [m:ss] or [h:mm:ss]. Sticky, so it matches at a position. */
const STAMP = /\[(?:(\d{1,2}):)?([0-5]?\d):([0-5]\d)\]/y;
const OPEN_BRACKET = 0x5b;
const OPEN_PAREN = 0x28;

/**
 * Inline rule: `[01:05]` becomes a `video_time` token (not in code, math or a link's text, and not
 * `[01:05](url)`, which stays a link). Rendered as a span carrying its seconds: the view makes it a
 * button that seeks the chat's video, or leaves it as text where there is none.
 */
function timestampRule(state: StateInline, silent: boolean): boolean {
  if (silent || state.src.charCodeAt(state.pos) !== OPEN_BRACKET) return false;
  if ((state as StateInline & { linkLevel?: number }).linkLevel) return false;
  STAMP.lastIndex = state.pos;
  const match = STAMP.exec(state.src);
  if (!match) return false;
  const end = state.pos + match[0].length;
  if (end > state.posMax || state.src.charCodeAt(end) === OPEN_PAREN) return false;
  const seconds = Number(match[1] ?? 0) * 3600 + Number(match[2]) * 60 + Number(match[3]);
  const token = state.push('video_time', 'span', 0);
  token.markup = match[0];
  token.meta = seconds;
  state.pos = end;
  return true;
}

function renderTimestamp(tokens: Token[], idx: number): string {
  const token = tokens[idx];
  return `<span class="md-time" ${TIMESTAMP_ATTR}="${Number(token.meta)}">${escapeHtml(token.markup)}</span>`;
}

/** Adds `[mm:ss]` video timestamps to `md`. */
export function addTimestamps(md: MarkdownIt): void {
  md.inline.ruler.after('link', 'video_time', timestampRule);
  md.renderer.rules.video_time = renderTimestamp;
}
