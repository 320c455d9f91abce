import type MarkdownIt from 'markdown-it';
import type { StateInline, Token } from 'markdown-it';
import { escapeHtml } from './html.ts';
import { ANSWER_LINK_TARGET, HTML_LINK_TARGET } from '../utils/link-target.ts';

/** A source an answer cites as [index] (the shape of shared/contracts/chat.ts ChatCitation). */
export interface CitationSource {
  index: number;
  title: string;
  url: string;
}

/** What the renderer links a marker to. */
export interface CitationTarget {
  index: number;
  title: string;
  href: string;
}

/**
 * The citations of one answer as the renderer uses them. `key` names the set exactly (same sources,
 * same key) and is short, so it can be part of the block cache's keys.
 */
export interface CitationSet {
  readonly key: string;
  readonly byIndex: ReadonlyMap<number, CitationTarget>;
}

/**
 * The address a source may be opened at: http(s) only, normalized by the URL parser; null for
 * anything else (javascript:, data:, relative or unparsable), which then stays text.
 */
export function citationHref(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
}

// Interned keys: a signature seen before gets its key back, so the same sources (a message shown
// again, a history reload) reuse the blocks already rendered for them.
const INTERNED_LIMIT = 500;
const interned = new Map<string, string>();
let nextKey = 0;

function internKey(signature: string): string {
  const hit = interned.get(signature);
  if (hit !== undefined) return hit;
  if (interned.size >= INTERNED_LIMIT) interned.delete(interned.keys().next().value as string);
  const key = `c${++nextKey}`;
  interned.set(signature, key);
  return key;
}

/**
 * The set the renderer uses, or undefined when there is nothing a marker could link to (then the
 * renderer does no citation work at all). Sources whose address is not http(s) are left out.
 */
export function citationSet(citations: readonly CitationSource[] | undefined): CitationSet | undefined {
  if (!citations || citations.length === 0) return undefined;
  const byIndex = new Map<number, CitationTarget>();
  for (const c of citations) {
    const href = citationHref(c.url);
    if (href && !byIndex.has(c.index)) byIndex.set(c.index, { index: c.index, title: c.title, href });
  }
  if (byIndex.size === 0) return undefined;
  const signature = [...byIndex.values()].map((t) => `${t.index}\u0001${t.href}\u0001${t.title}`).join('\u0002');
  return { key: internKey(signature), byIndex };
}

/** [1], [2,3] or [2, 3]: a marker of one or more source numbers. Sticky, so it matches at a position. */
const MARKER = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/y;
const OPEN_BRACKET = 0x5b;
const OPEN_PAREN = 0x28;

interface CitationEnv {
  citations?: CitationSet;
}

/**
 * Inline rule: a marker whose every number is a known source becomes a `citation` token. Runs only
 * where the markdown inline rules run (not in code spans, code blocks or math), after the link rule,
 * so `[1](url)` and reference links stay links, and never inside a link's text.
 */
function citationRule(state: StateInline, silent: boolean): boolean {
  const set = (state.env as CitationEnv | undefined)?.citations;
  // Silent runs come from the link rule measuring a label ("[see [1]](url)"): a marker there must
  // not swallow the brackets the link rule counts.
  if (!set || silent || state.src.charCodeAt(state.pos) !== OPEN_BRACKET) return false;
  if ((state as StateInline & { linkLevel?: number }).linkLevel) return false;
  MARKER.lastIndex = state.pos;
  const match = MARKER.exec(state.src);
  if (!match) return false;
  const end = state.pos + match[0].length;
  if (end > state.posMax || state.src.charCodeAt(end) === OPEN_PAREN) return false;
  const targets: CitationTarget[] = [];
  for (const part of match[1].split(',')) {
    const target = set.byIndex.get(Number(part.trim()));
    if (!target) return false;
    targets.push(target);
  }
  const token = state.push('citation', 'sup', 0);
  token.markup = match[0];
  token.meta = targets;
  state.pos = end;
  return true;
}

function renderCitation(tokens: Token[], idx: number): string {
  const targets = tokens[idx].meta as CitationTarget[];
  const links = targets
    .map(
      (t) =>
        `<a class="md-cite-link" href="${escapeHtml(t.href)}" target="${HTML_LINK_TARGET[ANSWER_LINK_TARGET]}" rel="noopener noreferrer" ` +
        `title="${escapeHtml(t.title || t.href)}" data-citation="${t.index}">${t.index}</a>`,
    )
    .join('');
  return `<sup class="md-cite">${links}</sup>`;
}

/** Adds citation markers to `md`; they are active only for a parse whose env carries `citations`. */
export function addCitations(md: MarkdownIt): void {
  md.inline.ruler.after('link', 'citation', citationRule);
  md.renderer.rules.citation = renderCitation;
}
