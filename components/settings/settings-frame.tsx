import { Box, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { PageFrame, PageShellContext } from '../ui/page-frame.tsx';
import type { SettingsSectionId } from './sections.ts';
import { SectionList, SettingsTabs } from './settings-nav.tsx';
import strings from '../../locales/features/settings.en.json';

addEnglishStrings(strings);

/** The content's width beside the list on a wide screen: the account pages' (components/ui/page-frame.tsx). */
const CONTENT_WIDTH = 720;
const LIST_WIDTH = 220;
const LIST_GAP = 32;

export interface SettingsFrameProps {
  /** The section whose item is marked: the page's own, or the one the page belongs to; null: none (the list of /setting on a narrow screen). */
  active: SettingsSectionId | null;
  onOpen: (section: SettingsSectionId) => void;
  /** Back to the chat (the wide frame's back link). */
  onBack: () => void;
  children: ReactNode;
}

/**
 * The settings layout's frame (the spec's "Settings layout": /setting, /subscription, /sider_setting,
 * /prompt_setting; composed by components/layout/settings-layout.tsx). On a wide screen the
 * sections' list on the left, the page beside it under one title bar with the way back to the chat;
 * on a narrow one (≤ 768 px, the side panel) the page as it is, with the sections as tabs under its
 * back bar.
 */
export function SettingsFrame({ active, onOpen, onBack, children }: SettingsFrameProps) {
  const { t } = useTranslation();
  const { isH5 } = usePlatform();
  if (isH5) {
    return <PageShellContext.Provider value={{ inset: false, nav: active && <SettingsTabs current={active} onOpen={onOpen} /> }}>{children}</PageShellContext.Provider>;
  }
  return (
    <PageFrame narrow={false} title={t('settings.title')} backLabel={t('settings.back')} onBack={onBack} width={LIST_WIDTH + LIST_GAP + CONTENT_WIDTH}>
      <Group align="flex-start" gap={LIST_GAP} wrap="nowrap" data-testid="settings-layout">
        <Box w={LIST_WIDTH} style={{ flexShrink: 0, position: 'sticky', top: 16 }}>
          <SectionList current={active ?? 'general'} onOpen={onOpen} />
        </Box>
        <Box style={{ flex: 1, minWidth: 0 }}>
          <PageShellContext.Provider value={{ inset: true, backLabel: t('settings.back') }}>{children}</PageShellContext.Provider>
        </Box>
      </Group>
    </PageFrame>
  );
}
