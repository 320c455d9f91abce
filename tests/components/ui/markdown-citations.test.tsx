import { render, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { MarkdownView } from '../../../components/ui/markdown-view.tsx';

const i18n = i18next.createInstance();

beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: 'en',
    resources: { en: { translation: { markdown: { copyCode: 'Copy code', copied: 'Copied' } } } },
  });
});

const wrap = (node: ReactNode) => <I18nextProvider i18n={i18n}>{node}</I18nextProvider>;

const SOURCES = [
  { index: 1, title: 'Rust', url: 'https://www.rust-lang.org/' },
  { index: 2, title: 'Book', url: 'https://doc.rust-lang.org/book/' },
];

describe('MarkdownView with citations', () => {
  it('links the markers of the given sources, not the ones in code', () => {
    const { container } = render(wrap(<MarkdownView text={'Rust is fast [1][2].\n\nUse `v[1]` to index.'} citations={SOURCES} />));
    const links = [...container.querySelectorAll('sup.md-cite a')];
    expect(links.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('rel')])).toEqual([
      ['1', 'https://www.rust-lang.org/', 'noopener noreferrer'],
      ['2', 'https://doc.rust-lang.org/book/', 'noopener noreferrer'],
    ]);
    expect(container.querySelector('code')!.textContent).toBe('v[1]');
  });

  it('renders the blocks again when sources arrive, and keeps their DOM while the same sources come again', () => {
    const text = 'First claim [1].\n\nSecond claim [2] grows\n';
    const { container, rerender } = render(wrap(<MarkdownView text={text} streaming />));
    const [first] = container.querySelectorAll('.md-block');
    expect(first.querySelector('a')).toBeNull();

    rerender(wrap(<MarkdownView text={text} streaming citations={SOURCES} />));
    const blocks = container.querySelectorAll('.md-block');
    // The same block elements, patched with the links.
    expect(blocks[0]).toBe(first);
    expect(blocks[0].querySelector('sup.md-cite a')!.getAttribute('href')).toBe('https://www.rust-lang.org/');
    expect(blocks[1].querySelector('sup.md-cite a')!.textContent).toBe('2');
    const paragraph = blocks[0].querySelector('p');

    // A new array with the same sources (a history reload, another event) changes nothing.
    rerender(wrap(<MarkdownView text={text + '\nmore'} streaming citations={SOURCES.map((s) => ({ ...s }))} />));
    expect(container.querySelectorAll('.md-block')[0].querySelector('p')).toBe(paragraph);
  });

  it('keeps the links when a block is rendered again once KaTeX has loaded', async () => {
    const { container } = render(wrap(<MarkdownView text={'Energy $E = mc^2$ as shown [1].'} citations={SOURCES} />));
    await waitFor(() => expect(container.querySelector('.katex')).not.toBeNull());
    expect(container.querySelector('sup.md-cite a')!.getAttribute('href')).toBe('https://www.rust-lang.org/');
  });
});
