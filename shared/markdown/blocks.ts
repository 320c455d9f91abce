import type { Token } from 'markdown-it';
import type { CitationSet } from './citations.ts';
import { highlightCode } from './highlight.ts';
import { loadKatex } from './math.ts';
import { DEFAULT_COPY_LABEL, DEFAULT_IMAGE_LABEL, markdown } from './render.ts';
import type { FenceInfo, RenderEnv } from './render.ts';

/**
 * Streaming render: an answer grows 50 characters at a time up to tens of kilobytes. Re-rendering the
 * whole text on every update costs O(length) each time, so a long answer stutters. Instead the text is
 * cut into top-level blocks (paragraph, fence, list, table, math block...): every block but the last is
 * final once the next one has started, so it is rendered once and kept; only the tail (from the last
 * block's start) is parsed and rendered again.
 */
export interface RenderedBlock {
  /** Stable React key: the block's position, which a finished block never changes. */
  key: string;
  /** The block's markdown. */
  source: string;
  html: string;
  /** No later text can change this block (or the answer is done). */
  complete: boolean;
  /** Code fences inside, for the highlighter. */
  fences: FenceInfo[];
  /** Some fence of a known language is still shown without colours. */
  needsHighlight: boolean;
  /** Some math is still shown as source: KaTeX had not been loaded yet. */
  needsMath: boolean;
}

export interface StreamRenderCache {
  readonly copyLabel: string;
  /** The answer's sources; a cache is made for one set (a new set means a new cache). */
  readonly citations?: CitationSet;
  /** Text of the images' placeholders (RenderEnv.imageLabel). */
  readonly imageLabel: string;
  /** The text the frozen blocks were cut from, up to where the tail starts. */
  prefix: string;
  frozen: RenderedBlock[];
  /** Last rendered tail blocks, reused while their source is unchanged. */
  tail: RenderedBlock[];
}

export function createStreamCache(
  copyLabel: string = DEFAULT_COPY_LABEL,
  citations?: CitationSet,
  imageLabel: string = DEFAULT_IMAGE_LABEL,
): StreamRenderCache {
  return { copyLabel, citations, imageLabel, prefix: '', frozen: [], tail: [] };
}

export interface StreamRenderOptions {
  /** The answer is complete: the last block is final too. */
  done?: boolean;
}

type RenderedHtml = Pick<RenderedBlock, 'html' | 'fences' | 'needsHighlight' | 'needsMath'>;

// Finished blocks by source across messages and mounts: a long chat scrolled back into view, or a
// message re-mounted, shows its blocks without parsing them again.
const BLOCK_CACHE_LIMIT = 2000;
const blockCache = new Map<string, RenderedHtml>();
/** What a block's HTML depends on besides its source: the UI's words. */
type Labels = Pick<StreamRenderCache, 'copyLabel' | 'imageLabel'>;

// The same source renders differently with other sources to cite: their set's key is part of the key.
const blockCacheKey = (source: string, labels: Labels, citations?: CitationSet) => {
  const words = `${labels.copyLabel}\u0000${labels.imageLabel}`;
  return citations ? `${words}\u0000${citations.key}\u0000${source}` : `${words}\u0000${source}`;
};

function rememberBlock(key: string, value: RenderedHtml): void {
  blockCache.delete(key);
  if (blockCache.size >= BLOCK_CACHE_LIMIT) blockCache.delete(blockCache.keys().next().value as string);
  blockCache.set(key, value);
}

function renderTokens(tokens: Token[], labels: Labels): RenderedHtml {
  const env: RenderEnv = { copyLabel: labels.copyLabel, imageLabel: labels.imageLabel, fences: [] };
  const html = markdown.renderer.render(tokens, markdown.options, env);
  return { html, fences: env.fences ?? [], needsHighlight: env.unhighlighted === true, needsMath: env.mathPending === true };
}

/** Offsets where each line of `text` starts, lines counted as markdown-it counts them. */
function lineStarts(text: string): number[] {
  const starts = [0];
  const breaks = /\r\n|\r|\n/g;
  for (let m = breaks.exec(text); m; m = breaks.exec(text)) starts.push(m.index + m[0].length);
  return starts;
}

interface TailBlock {
  tokens: Token[];
  /** Offset of the block's first line in the tail. */
  start: number;
  source: string;
}

/** Top-level blocks of `tail`, each with its tokens and the slice of text it came from. */
function splitBlocks(tail: string, citations: CitationSet | undefined): TailBlock[] {
  // Inline rules run while parsing: the citations must be in this env.
  const env: RenderEnv = { copyLabel: '', citations };
  const tokens = markdown.parse(tail, env);
  const starts = lineStarts(tail);
  const blocks: TailBlock[] = [];
  let i = 0;
  while (i < tokens.length) {
    const first = tokens[i];
    let j = i;
    // The matching close of a top-level open is the next level-0 closing token.
    if (first.nesting === 1) while (j < tokens.length && !(tokens[j].level === 0 && tokens[j].nesting === -1)) j++;
    const map = first.map;
    if (map) {
      const start = starts[map[0]] ?? tail.length;
      const end = starts[map[1]] ?? tail.length;
      blocks.push({ tokens: tokens.slice(i, j + 1), start, source: tail.slice(start, end) });
    } else if (blocks.length > 0) {
      // Map-less top-level tokens do not occur with our rules; keep them with the block before.
      blocks[blocks.length - 1].tokens.push(...tokens.slice(i, j + 1));
    }
    i = j + 1;
  }
  return blocks;
}

/**
 * Blocks of `text` as HTML, reusing what `cache` holds from the previous call. Frozen blocks come
 * back as the very same objects, so `React.memo` skips them; only the tail is parsed and rendered.
 */
export function renderStreaming(text: string, cache: StreamRenderCache, options: StreamRenderOptions = {}): RenderedBlock[] {
  // A replaced or shortened text (ReplaceMessage, a retry) starts over.
  if (!text.startsWith(cache.prefix)) {
    cache.prefix = '';
    cache.frozen = [];
    cache.tail = [];
  }
  const offset = cache.prefix.length;
  const tail = text.slice(offset);
  const tailBlocks = splitBlocks(tail, cache.citations);
  const done = options.done === true;
  const final = finalCount(tail, tailBlocks);
  const previous = new Map(cache.tail.map((b) => [b.key, b]));
  const rendered: RenderedBlock[] = [];

  tailBlocks.forEach((block, n) => {
    const key = `b${cache.frozen.length + n}`;
    const complete = n < final || done;
    const before = previous.get(key);
    if (before && before.source === block.source) {
      // Same source, same HTML: a block that just became final keeps its string, so the view has
      // nothing to change in the DOM.
      if (before.complete === complete) {
        rendered.push(before);
      } else {
        rendered.push({ ...before, complete });
        if (complete) {
          const { html, fences, needsHighlight, needsMath } = before;
          rememberBlock(blockCacheKey(before.source, cache, cache.citations), { html, fences, needsHighlight, needsMath });
        }
      }
      return;
    }
    rendered.push({ key, source: block.source, complete, ...renderBlock(block, cache, complete, cache.citations) });
  });

  // Freeze the final blocks and move the tail's start past them.
  if (final > 0) {
    cache.frozen = cache.frozen.concat(rendered.slice(0, final));
    cache.prefix = text.slice(0, offset + tailBlocks[final].start);
    cache.tail = rendered.slice(final);
  } else {
    cache.tail = rendered;
  }
  return cache.frozen.concat(cache.tail);
}

/**
 * How many leading blocks of the tail no later text can change. A block is final once the next one
 * has started, with one exception: while the next block's first line is unfinished it may still join
 * the block before it ("10" becoming "10." continues an ordered list above; "#" is a heading but "#x"
 * is a paragraph's lazy continuation line), so the block before an unfinished first line waits.
 */
function finalCount(tail: string, blocks: TailBlock[]): number {
  if (blocks.length < 2) return 0;
  const lastStart = blocks[blocks.length - 1].start;
  return tail.includes('\n', lastStart) || tail.includes('\r', lastStart) ? blocks.length - 1 : blocks.length - 2;
}

function renderBlock(block: TailBlock, labels: Labels, complete: boolean, citations: CitationSet | undefined): RenderedHtml {
  if (!complete) return renderTokens(block.tokens, labels);
  const key = blockCacheKey(block.source, labels, citations);
  const hit = blockCache.get(key);
  if (hit) return hit;
  const value = renderTokens(block.tokens, labels);
  rememberBlock(key, value);
  return value;
}

/**
 * The block's HTML with its fences highlighted and its math typeset: waits for the grammars and
 * KaTeX, then renders the block again (the renderer picks the highlighted code from the highlighter's
 * cache). Later renders of the same source get the finished HTML straight away.
 */
export async function finishBlock(
  block: RenderedBlock,
  copyLabel: string = DEFAULT_COPY_LABEL,
  citations?: CitationSet,
  imageLabel: string = DEFAULT_IMAGE_LABEL,
): Promise<string> {
  await Promise.all([
    ...(block.needsHighlight ? block.fences.map((fence) => highlightCode(fence.code, fence.lang)) : []),
    block.needsMath ? loadKatex() : undefined,
  ]);
  const labels = { copyLabel, imageLabel };
  const env: RenderEnv = { copyLabel, citations };
  const value = renderTokens(markdown.parse(block.source, env), labels);
  if (block.complete) rememberBlock(blockCacheKey(block.source, labels, citations), value);
  return value.html;
}
