import { Button, Tooltip } from '@mantine/core';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TabAccess } from '../../shared/platform/platform.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import strings from '../../locales/features/page-translate.en.json';
import { IconGlobe } from '../ui/icons.tsx';
import { notifyError } from '../ui/notify.ts';
import { unreadableReason, useCurrentTab } from './current-tab.ts';

addEnglishStrings(strings);

/**
 * Extension pages only: translates the page open beside the panel in place (the page translator,
 * shared/page-translate), or shows its original again. The label follows what the last click did on
 * this tab; the in-page bar has its own "Show original".
 */
export const TranslatePageButton = memo(function TranslatePageButton({ tabs }: { tabs: TabAccess }) {
  const { t, i18n } = useTranslation();
  const tab = useCurrentTab(tabs);
  const [state, setState] = useState<{ tabId?: number; url?: string; translated: boolean }>({ translated: false });
  const [busy, setBusy] = useState(false);
  if (!tab || !tabs.translatePage || tab.id === undefined) return null;
  const reason = unreadableReason(tab.url);
  if (reason) return null;
  const translated = state.tabId === tab.id && state.url === tab.url && state.translated;

  const toggle = async () => {
    if (tab.id === undefined || !tabs.translatePage) return;
    setBusy(true);
    try {
      const now = await tabs.translatePage(tab.id, i18n.language === 'zh' ? 'zh' : 'en');
      setState({ tabId: tab.id, url: tab.url, translated: now === 'translated' });
    } catch (error) {
      console.warn('translating the page failed', error);
      notifyError(t('pageTranslate.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Tooltip label={t('pageTranslate.hint')} withArrow multiline maw={280}>
      <Button
        variant="light"
        size="compact-sm"
        radius="xl"
        mb={6}
        data-testid="translate-page"
        loading={busy}
        aria-label={translated ? t('pageTranslate.showOriginal') : t('pageTranslate.label', { title: tab.title })}
        leftSection={<IconGlobe size={14} />}
        onClick={() => void toggle()}
      >
        {translated ? t('pageTranslate.showOriginal') : t('pageTranslate.translate')}
      </Button>
    </Tooltip>
  );
});
