import type { Language } from '../../shared/contracts/common.ts';

/**
 * The help centre's articles: Markdown files in the repository (docs/help/<language>/<slug>.md),
 * bundled with the help centre's chunk. An article's title is its first `# ` heading.
 */
export interface HelpArticle {
  slug: string;
  title: string;
  /** The Markdown after the title. */
  body: string;
}

/** The order the list shows; files not named here follow alphabetically. */
export const ARTICLE_ORDER = ['getting-started', 'models-and-plans', 'points', 'selection-toolbar', 'translation', 'translate-page', 'videos', 'pdfs', 'privacy', 'self-hosting'];

const files: Record<Language, Record<string, string>> = {
  en: import.meta.glob<string>('../../docs/help/en/*.md', { query: '?raw', import: 'default', eager: true }),
  zh: import.meta.glob<string>('../../docs/help/zh/*.md', { query: '?raw', import: 'default', eager: true }),
};

export function parseArticle(slug: string, markdown: string): HelpArticle {
  const text = markdown.replace(/\r\n/g, '\n');
  const match = /^#\s+(.+)\n?/.exec(text);
  return { slug, title: match ? match[1]!.trim() : slug, body: (match ? text.slice(match[0].length) : text).trim() };
}

const rank = (slug: string) => {
  const i = ARTICLE_ORDER.indexOf(slug);
  return i === -1 ? ARTICLE_ORDER.length : i;
};

export function helpArticles(language: Language): HelpArticle[] {
  return Object.entries(files[language] ?? files.en)
    .map(([file, markdown]) => parseArticle(file.replace(/^.*\/([^/]+)\.md$/, '$1'), markdown))
    .sort((a, b) => rank(a.slug) - rank(b.slug) || a.slug.localeCompare(b.slug));
}

export interface HelpMatch {
  article: HelpArticle;
  /** A piece of text around the first match in the body ('' when only the title matched). */
  snippet: string;
}

/** Markdown reduced to the words a reader sees (for matching and snippets). */
export function plainText(markdown: string): string {
  return markdown
    .replace(/```[a-z]*\n?/gi, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`#>|]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const SNIPPET_BEFORE = 40;
const SNIPPET_LENGTH = 140;

/**
 * Client-side search over titles and text: every whitespace-separated term must appear (case-insensitive;
 * Chinese terms match as substrings, as CJK text has no spaces). Title matches rank first.
 */
export function searchArticles(articles: readonly HelpArticle[], query: string): HelpMatch[] {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return articles.map((article) => ({ article, snippet: '' }));
  const scored: { match: HelpMatch; score: number; order: number }[] = [];
  articles.forEach((article, order) => {
    const title = article.title.toLowerCase();
    const text = plainText(article.body);
    const lower = text.toLowerCase();
    if (!terms.every((term) => title.includes(term) || lower.includes(term))) return;
    const score = terms.filter((term) => title.includes(term)).length;
    const at = Math.min(...terms.map((term) => lower.indexOf(term)).filter((i) => i >= 0));
    const start = Number.isFinite(at) ? Math.max(0, at - SNIPPET_BEFORE) : -1;
    const snippet = start < 0 ? '' : `${start > 0 ? '…' : ''}${text.slice(start, start + SNIPPET_LENGTH)}${start + SNIPPET_LENGTH < text.length ? '…' : ''}`;
    scored.push({ match: { article, snippet }, score, order });
  });
  return scored.sort((a, b) => b.score - a.score || a.order - b.order).map((s) => s.match);
}
