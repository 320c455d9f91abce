import { cleanup, render, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MarkdownView } from '../../../components/ui/markdown-view.tsx';
import { renderStreaming, createStreamCache } from '../../../shared/markdown/blocks.ts';
import { peekKatex } from '../../../shared/markdown/math.ts';
import { renderMarkdown } from '../../../shared/markdown/render.ts';

/**
 * KaTeX is not part of the page's first JavaScript: it loads when the first formula is met. This
 * file runs in a fresh module state (Vitest isolates files), so KaTeX starts out absent here.
 */
const i18n = i18next.createInstance();

beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: {} } } });
});

afterEach(cleanup);

describe('math before KaTeX has loaded', () => {
  it('shows the formula as escaped source, flags the block, starts the load, then typesets it', async () => {
    expect(peekKatex()).toBeUndefined();
    const html = renderMarkdown('Area $a<b$ and\n\n$$\n\\frac{1}{2}\n$$');
    expect(html).toContain('<code class="math-pending">a&lt;b</code>');
    expect(html).toContain('<pre class="math-pending">\\frac{1}{2}\n</pre>');
    expect(html).not.toContain('katex');

    const [block] = renderStreaming('Inline $x^2$ here.', createStreamCache(), { done: true });
    expect(block.needsMath).toBe(true);

    // The view shows the source first and the typeset formula once KaTeX is in.
    const { container } = render(
      <I18nextProvider i18n={i18n}>
        <MarkdownView text={'Energy $E = mc^2$.'} />
      </I18nextProvider>,
    );
    await waitFor(() => expect(container.querySelector('.katex')).not.toBeNull());
    expect(container.querySelector('.math-pending')).toBeNull();
    expect(peekKatex()).toBeDefined();

    // From now on math is typeset straight away.
    const [later] = renderStreaming('Inline $y^2$ here.', createStreamCache(), { done: true });
    expect(later.needsMath).toBe(false);
    expect(later.html).toContain('katex');
  });
});
