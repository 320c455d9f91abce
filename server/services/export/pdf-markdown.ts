import MarkdownIt from 'markdown-it';
import type { PluginSimple, Token } from 'markdown-it';
import katexModule from '@vscode/markdown-it-katex';
import { addBracketMath } from '../../../shared/utils/bracket-math.ts';

/**
 * Markdown as the PDF export lays it out: markdown-it's token stream (the parser the app's renderer
 * uses, with the same math delimiters: `$…$`, `$$…$$`, `\(…\)`, `\[…\]`) walked into a small tree
 * of blocks and styled runs. No HTML is made: raw HTML stays text, math stays its TeX source.
 */

export type Run = {
  text: string;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  /** Inline code: monospaced, on a light background. */
  code?: boolean;
  /** Inline math: its TeX source, monospaced. */
  math?: boolean;
  /** The address a click opens (http, https or mailto only). */
  link?: string;
  /** A hard line break (the text is empty). */
  br?: boolean;
};

export type Block =
  | { kind: 'heading'; level: number; runs: Run[] }
  | { kind: 'paragraph'; runs: Run[] }
  | { kind: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { kind: 'quote'; blocks: Block[] }
  | { kind: 'code'; text: string }
  | { kind: 'math'; text: string }
  | { kind: 'table'; rows: { header: boolean; cells: Run[][] }[] }
  | { kind: 'rule' };

/** Only these schemes become links, as in the app (shared/markdown/render.ts); anything else stays text. */
const SAFE_URL = /^(?:https?:|mailto:)/i;

// The plugin is CommonJS; under Node its default export arrives wrapped.
const katexPlugin = ((katexModule as unknown as { default?: unknown }).default ?? katexModule) as PluginSimple;

function createParser(): MarkdownIt {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
  // Bounds how deep quotes and lists may nest, so the walk below stays shallow (the parser's own option, untyped).
  (md.options as { maxNesting?: number }).maxNesting = 40;
  md.validateLink = (url: string) => SAFE_URL.test(url.trim());
  md.use(katexPlugin);
  addBracketMath(md);
  return md;
}

let parser: MarkdownIt | undefined;

type Style = Omit<Run, 'text' | 'br'>;

/** The runs of an inline token's children. `imageLabel` names an image, shown as its alt text and address. */
function inlineRuns(children: readonly Token[], imageLabel: string): Run[] {
  const runs: Run[] = [];
  const style: Style = {};
  const links: (string | undefined)[] = [];
  const push = (text: string, extra: Style = {}) => text && runs.push({ ...style, ...extra, text });
  for (const token of children) {
    switch (token.type) {
      case 'text':
        push(token.content);
        break;
      case 'softbreak':
        push(' ');
        break;
      case 'hardbreak':
        runs.push({ text: '', br: true });
        break;
      case 'strong_open':
      case 'strong_close':
        style.bold = token.nesting === 1;
        break;
      case 'em_open':
      case 'em_close':
        style.italic = token.nesting === 1;
        break;
      case 's_open':
      case 's_close':
        style.strike = token.nesting === 1;
        break;
      case 'code_inline':
        push(token.content, { code: true });
        break;
      case 'math_inline':
      case 'math_block':
        push(token.content.trim(), { math: true });
        break;
      case 'link_open':
        links.push(style.link);
        style.link = token.attrGet('href') ?? undefined;
        break;
      case 'link_close':
        style.link = links.pop();
        break;
      case 'image': {
        const alt = token.content.trim();
        push(`[${alt ? `${imageLabel}: ${alt}` : imageLabel}] `, { italic: true });
        push(token.attrGet('src') ?? '', { link: token.attrGet('src') ?? undefined });
        break;
      }
      default:
        // Anything else a plugin might add: its text, as text.
        push(token.content);
    }
  }
  return runs;
}

type Cursor = { tokens: Token[]; at: number; imageLabel: string };

/** The blocks from `cursor.at` up to the token closing the enclosing block (of type `until`), which is consumed. */
function blocksUntil(cursor: Cursor, until?: string): Block[] {
  const blocks: Block[] = [];
  while (cursor.at < cursor.tokens.length) {
    const token = cursor.tokens[cursor.at++]!;
    if (token.type === until) break;
    const block = blockAt(cursor, token);
    if (block) blocks.push(block);
  }
  return blocks;
}

/** The runs of the inline token at the cursor, and the closing token after it skipped. */
function inlineThenClose(cursor: Cursor): Run[] {
  const inline = cursor.tokens[cursor.at];
  let runs: Run[] = [];
  if (inline?.type === 'inline') {
    runs = inlineRuns(inline.children ?? [], cursor.imageLabel);
    cursor.at++;
  }
  cursor.at++;
  return runs;
}

function listAt(cursor: Cursor, open: Token): Block {
  const ordered = open.type === 'ordered_list_open';
  const close = ordered ? 'ordered_list_close' : 'bullet_list_close';
  const start = Number(open.attrGet('start') ?? 1);
  const items: Block[][] = [];
  while (cursor.at < cursor.tokens.length) {
    const token = cursor.tokens[cursor.at++]!;
    if (token.type === close) break;
    if (token.type === 'list_item_open') items.push(blocksUntil(cursor, 'list_item_close'));
  }
  return { kind: 'list', ordered, start: Number.isFinite(start) ? start : 1, items };
}

function tableAt(cursor: Cursor): Block {
  const rows: { header: boolean; cells: Run[][] }[] = [];
  let header = false;
  while (cursor.at < cursor.tokens.length) {
    const token = cursor.tokens[cursor.at++]!;
    if (token.type === 'table_close') break;
    if (token.type === 'thead_open') header = true;
    if (token.type === 'thead_close') header = false;
    if (token.type === 'tr_open') rows.push({ header, cells: [] });
    if (token.type === 'th_open' || token.type === 'td_open') rows.at(-1)?.cells.push(inlineThenClose(cursor));
  }
  return { kind: 'table', rows };
}

function blockAt(cursor: Cursor, token: Token): Block | undefined {
  switch (token.type) {
    case 'heading_open':
      return { kind: 'heading', level: Number(token.tag.slice(1)) || 1, runs: inlineThenClose(cursor) };
    case 'paragraph_open':
      return { kind: 'paragraph', runs: inlineThenClose(cursor) };
    case 'bullet_list_open':
    case 'ordered_list_open':
      return listAt(cursor, token);
    case 'blockquote_open':
      return { kind: 'quote', blocks: blocksUntil(cursor, 'blockquote_close') };
    case 'fence':
    case 'code_block':
      return { kind: 'code', text: token.content.replace(/\n$/, '') };
    case 'math_block':
      return { kind: 'math', text: token.content.trim() };
    case 'table_open':
      return tableAt(cursor);
    case 'hr':
      return { kind: 'rule' };
    case 'inline':
      return { kind: 'paragraph', runs: inlineRuns(token.children ?? [], cursor.imageLabel) };
    default:
      return undefined;
  }
}

/** The blocks of a Markdown document; `imageLabel` is the word for an image ("Image"). */
export function parseMarkdown(markdown: string, imageLabel: string): Block[] {
  parser ??= createParser();
  return blocksUntil({ tokens: parser.parse(markdown, {}), at: 0, imageLabel });
}
