import { beforeAll, describe, expect, it } from 'vitest';
import { createStreamCache, finishBlock, renderStreaming } from '../../../shared/markdown/blocks.ts';
import type { RenderedBlock } from '../../../shared/markdown/blocks.ts';
import { renderMarkdown } from '../../../shared/markdown/render.ts';
import { loadKatex } from '../../../shared/markdown/math.ts';
import { STREAM_FIXTURE } from '../../../bench/stream-render/fixture.ts';

// KaTeX loads on first use (math.ts); these tests are about the typeset result.
beforeAll(async () => {
  await loadKatex();
});

const joined = (blocks: RenderedBlock[]) => blocks.map((b) => b.html).join('');

// Constructs whose meaning depends on what follows: setext headings, loose lists, lazy lines,
// tables whose delimiter row comes later, fences and math left open for a while.
const TRICKY = [
  'Intro line\n===',
  '- one\n- two\n\n- three, now a loose list\n\n  continued item paragraph',
  '> quote\nlazy continuation\n\nafter the quote',
  'a paragraph\n| h1 | h2 |\n| -- | -- |\n| c1 | c2 |',
  '```python\ndef f():\n\n    return 1\n```',
  '$$\n\\sum_{i=1}^n i\n$$',
  '\\[\n\\int_0^1 x\\,dx\n\\]',
  '1. first\n2. second\n\n10. not continuing? yes it does',
  'Price $5 and \\(x^2\\) and `code $y$`',
  '    indented code\n\nparagraph\n***\nafter rule',
  'paragraph\n#not a heading\nline\n***not a rule',
  '- bullet\n\n-\n\n* other bullet',
].join('\n\n');

describe('renderStreaming', () => {
  it('gives at every step the same HTML as rendering the whole text', () => {
    const cache = createStreamCache();
    for (let end = 1; end <= TRICKY.length; end++) {
      const prefix = TRICKY.slice(0, end);
      expect(joined(renderStreaming(prefix, cache)), JSON.stringify(prefix)).toBe(renderMarkdown(prefix));
    }
  });

  it('gives the full render of the 60 KB benchmark answer when streamed in 50-character steps', () => {
    const cache = createStreamCache();
    let blocks: RenderedBlock[] = [];
    for (let end = 50; end < STREAM_FIXTURE.length + 50; end += 50) blocks = renderStreaming(STREAM_FIXTURE.slice(0, end), cache);
    blocks = renderStreaming(STREAM_FIXTURE, cache, { done: true });
    expect(blocks.length).toBeGreaterThan(100);
    expect(blocks.map((b) => b.html).join('')).toBe(renderMarkdown(STREAM_FIXTURE));
  });

  it('reuses finished blocks as the same objects and renders only the tail', () => {
    const cache = createStreamCache();
    const first = renderStreaming('# Title\n\nFirst paragraph.\n\nSecond\n', cache);
    expect(first.map((b) => b.complete)).toEqual([true, true, false]);
    const second = renderStreaming('# Title\n\nFirst paragraph.\n\nSecond paragraph grows', cache);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    expect(second[2]).not.toBe(first[2]);
    expect(second[2].html).toContain('Second paragraph grows');
    const third = renderStreaming('# Title\n\nFirst paragraph.\n\nSecond paragraph grows.\n\n- a list\n', cache);
    expect(third[0]).toBe(first[0]);
    expect(third[1]).toBe(first[1]);
    expect(third.map((b) => b.key)).toEqual(['b0', 'b1', 'b2', 'b3']);
    expect(third[2].complete).toBe(true);
    expect(third[3].complete).toBe(false);
  });

  it('keeps a block open while the next block\'s first line could still join it', () => {
    const cache = createStreamCache();
    const list = renderStreaming('1. first\n2. second\n\n10', cache);
    expect(list.map((b) => b.complete)).toEqual([false, false]);
    const joinedList = renderStreaming('1. first\n2. second\n\n10. tenth', cache);
    expect(joinedList).toHaveLength(1);
    expect(joinedList[0].html).toContain('<p>tenth');
    const para = renderStreaming('Some text\n#', createStreamCache());
    expect(para.map((b) => b.complete)).toEqual([false, false]);
  });

  it('keeps the growing block object while its source does not change', () => {
    const cache = createStreamCache();
    const a = renderStreaming('one\n\ntwo', cache);
    const b = renderStreaming('one\n\ntwo', cache);
    expect(b[1]).toBe(a[1]);
  });

  it('keeps an unclosed fence as one growing block, blank lines included', () => {
    const cache = createStreamCache();
    const text = 'Look:\n\n```ts\nconst a = 1;\n\n\nconst b = 2;\n\nNot a paragraph yet';
    const blocks = renderStreaming(text, cache);
    expect(blocks).toHaveLength(2);
    expect(blocks[1].complete).toBe(false);
    const code = document.createElement('div');
    code.innerHTML = blocks[1].html;
    expect(code.querySelector('pre code')!.textContent).toBe('const a = 1;\n\n\nconst b = 2;\n\nNot a paragraph yet');
    const closed = renderStreaming(`${text}\n\`\`\`\n\nAfter\n`, cache);
    expect(closed).toHaveLength(3);
    expect(closed[1].complete).toBe(true);
    expect(closed[1].fences).toEqual([{ code: 'const a = 1;\n\n\nconst b = 2;\n\nNot a paragraph yet\n', lang: 'ts' }]);
  });

  it('keeps an unclosed $$ as one growing block', () => {
    const cache = createStreamCache();
    const blocks = renderStreaming('Intro\n\n$$\n\\frac{a}{b}\n\nstill math', cache);
    expect(blocks).toHaveLength(2);
    expect(blocks[1].html).toContain('katex');
    expect(blocks[1].complete).toBe(false);
  });

  it('keeps the HTML string of a block that becomes final, so the view has nothing to redo', () => {
    const cache = createStreamCache();
    const blocks = renderStreaming('Done paragraph.\n\n- item one\n- item tw', cache);
    expect(blocks[1].complete).toBe(false);
    const done = renderStreaming('Done paragraph.\n\n- item one\n- item tw', cache, { done: true });
    expect(done[0]).toBe(blocks[0]);
    expect(done[1]).not.toBe(blocks[1]);
    expect(done[1].complete).toBe(true);
    expect(done[1].html).toBe(blocks[1].html);
  });

  it('starts over when the text is replaced rather than extended', () => {
    const cache = createStreamCache();
    renderStreaming('Old answer.\n\nMore old text', cache);
    const blocks = renderStreaming('A new answer', cache);
    expect(blocks).toHaveLength(1);
    expect(blocks[0].html).toContain('A new answer');
    expect(blocks[0].html).not.toContain('Old');
  });

  it('renders nothing for empty text', () => {
    expect(renderStreaming('', createStreamCache())).toEqual([]);
  });

  it('highlights a finished fence block, and later renders of that source come coloured', async () => {
    const source = '```python\nprint("hi")\n```';
    const [block] = renderStreaming(source, createStreamCache(), { done: true });
    expect(block.needsHighlight).toBe(true);
    const html = await finishBlock(block);
    expect(html).toContain('class="md-code"');
    expect(html).toMatch(/<span style="color:#[0-9A-Fa-f]{6};--shiki-dark:#[0-9A-Fa-f]{6}">print<\/span>/);
    const [again] = renderStreaming(source, createStreamCache(), { done: true });
    expect(again.html).toBe(html);
    expect(again.needsHighlight).toBe(false);
  });
});
