import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { helpArticles, searchArticles } from '../../../components/newcomers/help-articles.ts';
import { HelperPage } from '../../../components/newcomers/helper-page.tsx';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

const server = serveTheseTests();
/** Every string of a locale file. */
const stringsOf = (tree: object): string[] => Object.values(tree).flatMap((v) => (typeof v === 'string' ? [v] : typeof v === 'object' && v ? stringsOf(v) : []));
const TOPICS = ['getting-started', 'models-and-plans', 'points', 'selection-toolbar', 'translation', 'translate-page', 'videos', 'pdfs', 'privacy', 'self-hosting'];

describe('the help centre', () => {
  it('has the same articles in English and Chinese, each with a title and text', () => {
    for (const language of ['en', 'zh'] as const) {
      const articles = helpArticles(language);
      expect(articles.map((a) => a.slug)).toEqual(TOPICS);
      for (const article of articles) {
        expect(article.title).not.toBe(article.slug);
        expect(article.title.length).toBeGreaterThanOrEqual(2);
        expect(article.body.length).toBeGreaterThan(150);
      }
    }
  });

  it('names the screens as the app does: each step of a **Settings → …** path is a label in that language', () => {
    const dir = join(import.meta.dirname, '../../../locales');
    for (const language of ['en', 'zh'] as const) {
      const files = [`${language}.json`, ...readdirSync(join(dir, 'features')).filter((f) => f.endsWith(`.${language}.json`)).map((f) => `features/${f}`)];
      const labels = new Set(files.flatMap((f) => stringsOf(JSON.parse(readFileSync(join(dir, f), 'utf8')))));
      const paths = helpArticles(language).flatMap((a) => [...a.body.matchAll(/\*\*([^*]+ → [^*]+)\*\*/g)].map((m) => m[1]!));
      expect(paths.length).toBeGreaterThanOrEqual(4);
      for (const path of paths) for (const step of path.split(' → ')) expect(labels, `${language}: "${step}" in "${path}"`).toContain(step);
    }
  });

  it('searches titles and text, every word, in English and in Chinese (no spaces)', () => {
    const en = helpArticles('en');
    expect(searchArticles(en, 'redeem').map((m) => m.article.slug)).toEqual(['points']);
    expect(searchArticles(en, 'POINTS')[0]!.article.slug).toBe('points');
    expect(searchArticles(en, 'redeem').at(0)!.snippet.toLowerCase()).toContain('redeem');
    expect(searchArticles(en, 'postgresql redis').map((m) => m.article.slug)).toEqual(['self-hosting']);
    expect(searchArticles(en, 'zebra')).toEqual([]);
    const zh = helpArticles('zh');
    expect(searchArticles(zh, '兑换码').map((m) => m.article.slug)).toContain('points');
    expect(searchArticles(zh, '隐私')[0]!.article.slug).toBe('privacy');
  });

  it('filters the list as the user types, and opens an article rendered as Markdown', async () => {
    const user = userEvent.setup();
    const navigate = vi.fn();
    const view = await renderInApp(<HelperPage onNavigate={navigate} />, { apiBase: server.url });
    expect(await screen.findByTestId('help-result-privacy')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Search help articles' }), 'check-in');
    await waitFor(() => expect(screen.queryByTestId('help-result-privacy')).toBeNull());
    expect(screen.getByTestId('help-result-points')).toBeInTheDocument();
    await user.click(screen.getByTestId('help-result-points'));
    expect(navigate).toHaveBeenCalledWith('/helper/points');
    await user.clear(screen.getByRole('textbox'));
    await user.type(screen.getByRole('textbox'), 'zebra');
    expect(await screen.findByText('No article matches “zebra”.')).toBeInTheDocument();

    view.rerender(<></>);
    view.unmount();
    await renderInApp(<HelperPage slug="points" onNavigate={navigate} />, { apiBase: server.url });
    const article = await screen.findByTestId('help-article');
    expect(article.querySelector('h2')).toHaveTextContent('Earning points');
    expect(article.querySelector('strong')).toBeInTheDocument();
  });

  it('shows the Chinese articles on a page in Chinese', async () => {
    await renderInApp(<HelperPage onNavigate={vi.fn()} />, { apiBase: server.url });
    await setLanguage('zh');
    expect(await screen.findByText('帮助中心')).toBeInTheDocument();
    expect(await screen.findByText('快速上手')).toBeInTheDocument();
  });
});
