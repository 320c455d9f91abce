import './answer-extras.css';
import { Text } from '@mantine/core';
import { memo, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/chat-citations.en.json';
import type { ChatCitation } from '../../shared/contracts/chat.ts';
import { citationHref } from '../../shared/markdown/citations.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';

addEnglishStrings(en);

/** The site a source is on, without "www.", for the list; null when the address is not a URL. */
function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^www\./, '') || null;
  } catch {
    return null;
  }
}

/**
 * The sources a web-searched answer cites, below it: numbered as the answer's [n] markers are, each
 * its title (opening the page in a new tab) and its site. A source whose address is not http(s) is
 * listed without a link.
 */
export const CitationSources = memo(function CitationSources({ citations }: { citations: readonly ChatCitation[] }) {
  const { t } = useTranslation();
  const headingId = useId();
  const sorted = useMemo(() => [...citations].sort((a, b) => a.index - b.index), [citations]);
  if (sorted.length === 0) return null;
  return (
    <div className="chat-sources" data-testid="answer-sources">
      <Text id={headingId} size="xs" fw={600} c="dimmed">
        {t('chat.citations.sources')}
      </Text>
      <ol className="chat-sources-list" aria-labelledby={headingId}>
        {sorted.map((citation) => {
          const href = citationHref(citation.url);
          const host = hostOf(citation.url);
          const title = citation.title.trim() || host || citation.url;
          return (
            <li key={citation.index} value={citation.index} className="chat-source">
              <span className="chat-source-index" aria-hidden="true">
                {citation.index}
              </span>
              {href ? (
                <a
                  className="chat-source-title"
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  title={href}
                  aria-label={t('chat.citations.openSource', { index: citation.index, title })}
                >
                  {title}
                </a>
              ) : (
                <span className="chat-source-title">{title}</span>
              )}
              {host && <span className="chat-source-host">{host}</span>}
            </li>
          );
        })}
      </ol>
    </div>
  );
});
