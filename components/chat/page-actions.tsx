import { Button, Tooltip } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import type { ActiveTab, TabAccess } from '../../shared/platform/platform.ts';
import { pdfAddressOf } from '../../shared/utils/pdf-tab.ts';
import { videoPlatformOf } from '../../shared/utils/video-address.ts';
import { IconFileText, IconGlobe, IconPlayerPlay } from '../ui/icons.tsx';
import { notifyError } from '../ui/notify.ts';
import { PageIcon } from './attachments.tsx';
import { unreadableReason, useCurrentTab } from './current-tab.ts';
import { parsePageUrl } from './use-attachments.ts';
import strings from '../../locales/features/page-translate.en.json';

addEnglishStrings(strings);

/**
 * The side panel's buttons about the tab beside it, above the composer: "Summarise this video" on a
 * watch page, "Read this page" and "Translate page". Loaded after the panel's first paint (lazy in
 * video-summary.tsx): none of it is needed before the active tab is known.
 */
export default function PageActions({
  tabs,
  has,
  onRead,
  onSummarise,
}: {
  tabs: TabAccess;
  has: (url: string) => boolean;
  onRead: (tab: ActiveTab) => void;
  onSummarise: (tab: ActiveTab) => void;
}) {
  const tab = useCurrentTab(tabs);
  if (!tab) return null;
  return (
    <div className="page-actions">
      <SummariseVideoButton tab={tab} has={has} onSummarise={onSummarise} />
      <ReadThisPageButton tab={tab} has={has} onRead={onRead} />
      <TranslatePageButton tabs={tabs} tab={tab} />
    </div>
  );
}

/** The shape the three share: a small round button with its hint as a tooltip. */
function PageActionButton({ hint, children, ...button }: { hint: string; children: ReactNode } & Parameters<typeof Button<'button'>>[0]) {
  return (
    <Tooltip label={hint} withArrow multiline maw={280}>
      <Button variant="light" size="compact-sm" radius="xl" mb={6} {...button}>
        {children}
      </Button>
    </Tooltip>
  );
}

/**
 * On a YouTube or Bilibili watch page, "Summarise this video" reads the video's transcript in its tab
 * (shared/utils/video-transcript.ts), attaches it and asks for a summary with [mm:ss] timestamps.
 * Hidden on other pages, and once that video is attached.
 */
function SummariseVideoButton({ tab, has, onSummarise }: { tab: ActiveTab; has: (url: string) => boolean; onSummarise: (tab: ActiveTab) => void }) {
  const { t } = useTranslation();
  if (!videoPlatformOf(tab.url)) return null;
  const url = parsePageUrl(tab.url);
  if (!url || has(url)) return null;
  return (
    <PageActionButton
      hint={t('chat.video.summarizeHint')}
      variant="filled"
      mr={6}
      className="summarise-video"
      aria-label={t('chat.video.summarizeLabel', { title: tab.title })}
      leftSection={<IconPlayerPlay size={14} />}
      onClick={() => onSummarise(tab)}
    >
      {t('chat.video.summarize')}
    </PageActionButton>
  );
}

/**
 * Offers the page open beside the panel, by its title. The extension reads it in the tab itself, as
 * the user sees it (signed in, after its scripts ran). A page the browser keeps extensions out of (its
 * own pages, its extension store) is shown greyed out, saying why.
 */
function ReadThisPageButton({ tab, has, onRead }: { tab: ActiveTab; has: (url: string) => boolean; onRead: (tab: ActiveTab) => void }) {
  const { t } = useTranslation();
  // A PDF (also file:// and in the browser's viewer) is read by its address (use-attachments.ts).
  const pdf = pdfAddressOf(tab.url);
  const reason = pdf ? null : unreadableReason(tab.url);
  // An http(s) page that is attached already is not offered twice (the composer's own duplicate rule).
  const url = pdf ?? parsePageUrl(tab.url);
  if (!reason && (!url || has(url))) return null;
  const why = reason ? t(`chat.content.unreadable.${reason}`) : null;
  return (
    <span className="read-this-page-wrap">
      <PageActionButton
        hint={why ?? t('chat.content.readThisPageHint')}
        className="read-this-page"
        disabled={why !== null}
        aria-label={t('chat.content.readThisPageLabel', { title: tab.title })}
        aria-description={why ?? undefined}
        leftSection={tab.favIconUrl ? <PageIcon icon={tab.favIconUrl} /> : <IconFileText size={14} />}
        onClick={() => onRead(tab)}
      >
        <span className="read-this-page-label">{t('chat.content.readThisPage')}</span>
        <span className="read-this-page-title">{tab.title}</span>
      </PageActionButton>
    </span>
  );
}

/**
 * Translates the page open beside the panel in place (the page translator, shared/utils/page-translate),
 * or shows its original again. The label follows what the last click did on this tab; the in-page bar
 * has its own "Show original".
 */
function TranslatePageButton({ tabs, tab }: { tabs: TabAccess; tab: ActiveTab }) {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState<{ tabId?: number; url?: string; translated: boolean }>({ translated: false });
  const [busy, setBusy] = useState(false);
  const { translatePage } = tabs;
  const tabId = tab.id;
  if (!translatePage || tabId === undefined || unreadableReason(tab.url)) return null;
  const translated = state.tabId === tabId && state.url === tab.url && state.translated;

  const toggle = async () => {
    setBusy(true);
    try {
      const now = await translatePage(tabId, i18n.language === 'zh' ? 'zh' : 'en');
      setState({ tabId, url: tab.url, translated: now === 'translated' });
    } catch (error) {
      console.warn('translating the page failed', error);
      notifyError(t('pageTranslate.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <PageActionButton
      hint={t('pageTranslate.hint')}
      data-testid="translate-page"
      loading={busy}
      aria-label={translated ? t('pageTranslate.showOriginal') : t('pageTranslate.label', { title: tab.title })}
      leftSection={<IconGlobe size={14} />}
      onClick={() => void toggle()}
    >
      {translated ? t('pageTranslate.showOriginal') : t('pageTranslate.translate')}
    </PageActionButton>
  );
}
