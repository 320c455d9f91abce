import { Center, Loader, Stack, Title } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { Suspense, useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isLoggedInAtom } from '../../shared/atoms/auth.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { SignInPrompt } from '../app-shell/sign-in-prompt.tsx';
import { PageFrame } from '../ui/page-frame.tsx';
import { AccountSection } from './account-section.tsx';
import { GeneralSettings } from './general-section.tsx';
import type { SettingsSectionId } from './sections.ts';
import { SectionList } from './settings-nav.tsx';
import strings from '../../locales/features/settings.en.json';

addEnglishStrings(strings);

export interface SettingsPageProps {
  /** The open section (/setting/<id>); none at /setting: the list on a narrow screen, General on a wide one. */
  section?: SettingsSectionId;
  /** Opens a section, or the list (`null`). */
  onOpen: (section: SettingsSectionId | null) => void;
  /** Back to the chat. */
  onBack: () => void;
  /** Other features' parts of each section, composed by components/layout: shown after the section's own. */
  sections?: Partial<Record<SettingsSectionId, ReactNode>>;
}

/**
 * Settings, in sections. On a narrow screen (the side panel, a phone) /setting is the list of the
 * sections, each with what is inside it, and a section is a page of its own with a back arrow to the
 * list; on a wide one the open section (General at /setting) sits beside the list, which the settings
 * layout shows (components/layout/settings-layout.tsx, settings-frame.tsx).
 */
export function SettingsPage({ section, onOpen, onBack, sections = {} }: SettingsPageProps) {
  const { t } = useTranslation();
  const { isH5 } = usePlatform();
  // Another section starts at its top, not where the last one was scrolled to.
  useEffect(() => {
    document.scrollingElement?.scrollTo?.(0, 0);
  }, [section]);

  if (isH5 && !section) {
    return (
      <PageFrame narrow title={t('settings.title')} backLabel={t('settings.back')} onBack={onBack} backBarTestId="settings-back-bar">
        <SectionList onOpen={onOpen} />
      </PageFrame>
    );
  }
  const open = section ?? 'general';
  const content = <SectionContent section={open} extra={sections[open]} />;
  if (isH5) {
    return (
      <PageFrame narrow title={t(`settings.sections.${open}.title`)} backLabel={t('settings.backToList')} onBack={() => onOpen(null)} backBarTestId="settings-back-bar">
        {content}
      </PageFrame>
    );
  }
  // Beside the sections' list of the settings layout (settings-frame.tsx), which gives the title bar and the way back.
  return (
    <Stack gap="md">
      <Title order={4}>{t(`settings.sections.${open}.title`)}</Title>
      {content}
    </Stack>
  );
}

/** A section's own settings, then what other features add to it; a visitor is asked to sign in where all of it needs a login. */
function SectionContent({ section, extra }: { section: SettingsSectionId; extra: ReactNode }) {
  const { t } = useTranslation();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const own: Partial<Record<SettingsSectionId, ReactNode>> = {
    general: <GeneralSettings />,
    account: <AccountSection />,
    points: loggedIn ? null : <SignInPrompt message={t('settings.signIn.points')} signInLabel={t('settings.login')} notice="settings.signIn.notice" />,
    privacy: loggedIn ? null : <SignInPrompt message={t('settings.signIn.privacy')} signInLabel={t('settings.login')} notice="settings.signIn.notice" />,
  };
  return (
    <Stack gap="md" data-testid={`settings-section-${section}`}>
      {own[section]}
      {/* Another section's pieces load in its place: the list beside it stays. */}
      <Suspense
        fallback={
          <Center py="xl">
            <Loader size="sm" />
          </Center>
        }
      >
        {extra}
      </Suspense>
    </Stack>
  );
}
