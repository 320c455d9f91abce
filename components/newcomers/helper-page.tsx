import { Anchor, Highlight, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../shared/contracts/common.ts';
import { MarkdownView } from '../ui/markdown-view.tsx';
import { IconSearch } from '../ui/icons.tsx';
import { helpArticles, plainText, searchArticles } from './help-articles.ts';
import { NewcomerFrame } from './newcomer-frame.tsx';
import './strings.ts';

export interface HelperPageProps {
  /** The open article's slug (/helper/<slug>); absent: the list and search. */
  slug?: string;
  onNavigate: (path: string) => void;
}

/** The help centre (/helper): the articles of the page's language, searched as you type; one article at /helper/<slug>. */
export function HelperPage({ slug, onNavigate }: HelperPageProps) {
  const { t, i18n } = useTranslation();
  const language: Language = i18n.language === 'zh' ? 'zh' : 'en';
  const articles = useMemo(() => helpArticles(language), [language]);
  const article = slug ? articles.find((a) => a.slug === slug) : undefined;

  if (article) {
    return (
      <NewcomerFrame title={article.title} onBack={() => onNavigate('/helper')} backLabel={t('newcomers.helper.backToList')}>
        <Paper p={0} data-testid="help-article">
          <MarkdownView text={article.body} />
        </Paper>
      </NewcomerFrame>
    );
  }
  return <ArticleList articles={articles} onNavigate={onNavigate} />;
}

function ArticleList({ articles, onNavigate }: { articles: ReturnType<typeof helpArticles>; onNavigate: (path: string) => void }) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const matches = useMemo(() => searchArticles(articles, query), [articles, query]);
  const terms = query.split(/\s+/).filter(Boolean);
  return (
    <NewcomerFrame title={t('newcomers.helper.title')} onBack={() => onNavigate('/')}>
      <Stack gap="md" data-testid="helper-page">
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder={t('newcomers.helper.search')}
          aria-label={t('newcomers.helper.search')}
          value={query}
          onChange={(event) => setQuery(event.currentTarget.value)}
          size="md"
        />
        {matches.length === 0 && <Text c="dimmed">{t('newcomers.helper.noResults', { query })}</Text>}
        {matches.map(({ article, snippet }) => (
          <Paper
            key={article.slug}
            withBorder
            p="md"
            radius={8}
            component="a"
            href={`/helper/${article.slug}`}
            onClick={(event: React.MouseEvent) => {
              event.preventDefault();
              onNavigate(`/helper/${article.slug}`);
            }}
            style={{ textDecoration: 'none', color: 'inherit' }}
            data-testid={`help-result-${article.slug}`}
          >
            <Title order={4} mb={4}>
              <Highlight highlight={terms} component="span" inherit>
                {article.title}
              </Highlight>
            </Title>
            <Text size="sm" c="dimmed" lineClamp={2}>
              <Highlight highlight={terms} component="span" inherit>
                {snippet || firstLine(article.body)}
              </Highlight>
            </Text>
          </Paper>
        ))}
        <Text size="sm" c="dimmed">
          <Anchor
            href="/feedback"
            onClick={(event) => {
              event.preventDefault();
              onNavigate('/feedback');
            }}
          >
            {t('newcomers.helper.contact')}
          </Anchor>
        </Text>
      </Stack>
    </NewcomerFrame>
  );
}

/** The article's first paragraph, as words, for the list. */
function firstLine(body: string): string {
  const paragraph = body.split(/\n\s*\n/).find((p) => p.trim() && !p.startsWith('#')) ?? '';
  return plainText(paragraph.replace(/^\s*(?:[-*]|\d+\.)\s+/gm, ''));
}
