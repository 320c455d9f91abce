import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MarkdownView } from '../../../components/ui/markdown-view.tsx';
import { loadKatex } from '../../../shared/markdown/math.ts';

// KaTeX loads on first use (math.ts); these tests are about the typeset result.
beforeAll(async () => {
  await loadKatex();
});

const i18n = i18next.createInstance();

beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: 'en',
    resources: { en: { translation: { markdown: { copyCode: 'Copy code', copied: 'Copied' } } } },
  });
});

afterEach(cleanup);

const wrap = (node: ReactNode) => <I18nextProvider i18n={i18n}>{node}</I18nextProvider>;

describe('MarkdownView', () => {
  it('renders markdown, math and a code block', () => {
    const { container } = render(wrap(<MarkdownView text={'# Hello\n\nInline $x^2$.\n\n```py\nprint(1)\n```\n'} />));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Hello');
    expect(container.querySelector('.katex')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Copy code' })).toBeTruthy();
  });

  it('keeps finished blocks\' DOM untouched while the answer streams, and patches the growing one', () => {
    const { container, rerender } = render(wrap(<MarkdownView text={'First paragraph.\n\nSecond\n'} streaming />));
    const view = container.querySelector('.md-view')!;
    expect(view.hasAttribute('data-streaming')).toBe(true);
    const [firstBlock, growing] = container.querySelectorAll('.md-block');
    const firstParagraph = firstBlock.querySelector('p')!;
    const growingParagraph = growing.querySelector('p')!;
    expect(firstBlock.hasAttribute('data-complete')).toBe(true);
    expect(growing.hasAttribute('data-complete')).toBe(false);

    rerender(wrap(<MarkdownView text={'First paragraph.\n\nSecond paragraph, $x$ grows'} streaming />));
    let blocks = container.querySelectorAll('.md-block');
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toBe(firstBlock);
    expect(blocks[0].querySelector('p')).toBe(firstParagraph);
    expect(blocks[1].querySelector('p')).toBe(growingParagraph);
    const formula = growingParagraph.querySelector('.katex')!;
    expect(growingParagraph.textContent).toContain('grows');

    rerender(wrap(<MarkdownView text={'First paragraph.\n\nSecond paragraph, $x$ grows more.\n\n- item\n'} streaming />));
    blocks = container.querySelectorAll('.md-block');
    expect(blocks).toHaveLength(3);
    expect(blocks[1].querySelector('.katex')).toBe(formula);
    expect(blocks[1].hasAttribute('data-complete')).toBe(true);
    expect(blocks[2].querySelector('li')!.textContent).toBe('item');

    rerender(wrap(<MarkdownView text={'First paragraph.\n\nSecond paragraph, $x$ grows more.\n\n- item\n'} streaming={false} />));
    expect(view.hasAttribute('data-streaming')).toBe(false);
    expect(view.getAttribute('aria-busy')).toBe('false');
    expect(container.querySelectorAll('.md-block[data-complete]')).toHaveLength(3);
  });

  it('groups blocks in sections of 16 that a block never leaves while the answer grows', () => {
    const paragraphs = (n: number) => Array.from({ length: n }, (_, i) => `Paragraph ${i + 1}.`).join('\n\n');
    const { container, rerender } = render(wrap(<MarkdownView text={paragraphs(15)} streaming />));
    expect(container.querySelectorAll('.md-section')).toHaveLength(1);
    const first = container.querySelector('.md-block')!;

    rerender(wrap(<MarkdownView text={paragraphs(20)} streaming />));
    const sections = container.querySelectorAll('.md-view > .md-section');
    expect(sections).toHaveLength(2);
    expect(sections[0].querySelectorAll('.md-block')).toHaveLength(16);
    expect(sections[1].querySelectorAll('.md-block')).toHaveLength(4);
    expect(container.querySelector('.md-block')).toBe(first);
  });

  it('starts over when the answer is replaced', () => {
    const { container, rerender } = render(wrap(<MarkdownView text={'Old answer\n\nwith two blocks'} streaming />));
    rerender(wrap(<MarkdownView text="New" streaming />));
    expect(container.querySelectorAll('.md-block')).toHaveLength(1);
    expect(container.textContent).toBe('New\n');
  });

  it('shows a cursor before the first character arrives', () => {
    const { container } = render(wrap(<MarkdownView text="" streaming />));
    expect(container.querySelector('.md-cursor')).not.toBeNull();
  });

  it('copies the code of a block to the clipboard', async () => {
    const user = userEvent.setup();
    render(wrap(<MarkdownView text={'```ts\nconst a = 1 < 2;\n```\n\n```sh\necho two\n```'} />));
    const [first, second] = screen.getAllByRole('button', { name: 'Copy code' });
    await user.click(second);
    expect(await navigator.clipboard.readText()).toBe('echo two\n');
    await waitFor(() => expect(second).toHaveAttribute('aria-label', 'Copied'));
    await user.click(first);
    expect(await navigator.clipboard.readText()).toBe('const a = 1 < 2;\n');
  });

  it('colours finished code blocks once highlighting is ready, and not while they grow', async () => {
    const { container, rerender } = render(wrap(<MarkdownView text={'```python\ndef f(x):\n    return x'} streaming />));
    // A finished block in another view, highlighted: the highlighter is ready, so a highlight the
    // growing block had wrongly started would have landed by now.
    const other = render(wrap(<MarkdownView text={'```python\nx = 1\n```'} />));
    await waitFor(() => expect(other.container.querySelector('pre.shiki')).not.toBeNull(), { timeout: 5000 });
    other.unmount();
    expect(container.querySelector('pre.shiki')).toBeNull();
    rerender(wrap(<MarkdownView text={'```python\ndef f(x):\n    return x\n```'} streaming={false} />));
    await waitFor(() => expect(container.querySelector('pre.shiki')).not.toBeNull(), { timeout: 5000 });
    expect(container.querySelector('pre.shiki span[style*="color"]')).not.toBeNull();
    expect(container.querySelector('.md-code-lang')!.textContent).toBe('python');
  });

  it('shows raw HTML in an answer as text', () => {
    const { container } = render(wrap(<MarkdownView text={'<img src=x onerror="alert(1)"> <script>x()</script>'} />));
    expect(container.querySelector('img, script')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
  });
});
