import { Box, Center, Group, Loader, NavLink, Paper, Stack, ThemeIcon, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useAtomValue, useStore } from 'jotai';
import { Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isLoggedInAtom } from '../../shared/atoms/auth.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { signOut } from '../app-shell/account.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { SignInPrompt } from '../app-shell/sign-in-prompt.tsx';
import { IconChevronRight, IconCoin, IconPrompt, IconSettings, type IconProps } from '../ui/icons.tsx';
import { PageFrame } from '../ui/page-frame.tsx';
import { AccountSection } from './account-section.tsx';
import { GeneralSettings } from './general-section.tsx';
import { SETTINGS_SECTIONS, type SettingsSectionId } from './sections.ts';
import { IconBrowser, IconLogout, IconShield, IconUser } from './settings-icons.tsx';
import strings from '../../locales/features/settings.en.json';

addEnglishStrings(strings);

/** The content's width beside the list on a wide screen: the account pages' (components/ui/page-frame.tsx). */
const CONTENT_WIDTH = 720;
const LIST_WIDTH = 220;
const LIST_GAP = 32;

const ICONS: Record<SettingsSectionId, ComponentType<IconProps>> = {
  general: IconSettings,
  account: IconUser,
  points: IconCoin,
  prompts: IconPrompt,
  privacy: IconShield,
  extension: IconBrowser,
};

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
 * list; on a wide one the list sits on the left beside the open section (General at /setting).
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
  return (
    <PageFrame narrow={false} title={t('settings.title')} backLabel={t('settings.back')} onBack={onBack} width={LIST_WIDTH + LIST_GAP + CONTENT_WIDTH}>
      <Group align="flex-start" gap={LIST_GAP} wrap="nowrap">
        <Box w={LIST_WIDTH} style={{ flexShrink: 0, position: 'sticky', top: 16 }}>
          <SectionList current={open} onOpen={onOpen} />
        </Box>
        <Stack gap="md" style={{ flex: 1, minWidth: 0 }}>
          <Title order={4}>
            {t(`settings.sections.${open}.title`)}
          </Title>
          {content}
        </Stack>
      </Group>
    </PageFrame>
  );
}

/** One section's hint: what is inside it, as this platform has it. */
function useHint(section: SettingsSectionId): string {
  const { t } = useTranslation();
  const { isExtension } = usePlatform();
  if (section === 'general' && isExtension) return t('settings.sections.general.hintExtension');
  if (section === 'extension' && !isExtension) return t('settings.sections.extension.hintWeb');
  return t(`settings.sections.${section}.hint`);
}

/**
 * The sections: on a narrow screen the whole page, each row with its icon, title and hint and an
 * arrow into it; on a wide one the list beside the open section (`current`), which is marked.
 */
function SectionList({ current, onOpen }: { current?: SettingsSectionId; onOpen: (section: SettingsSectionId) => void }) {
  const { t } = useTranslation();
  const rows = [
    ...SETTINGS_SECTIONS.map((id) => <SectionRow key={id} id={id} current={current} onOpen={onOpen} />),
    <LogoutRow key="logout" wide={current !== undefined} />,
  ];
  if (current) {
    return (
      <Stack component="nav" gap={2} aria-label={t('settings.sectionsLabel')} data-testid="settings-nav">
        {rows}
      </Stack>
    );
  }
  return (
    <Paper component="nav" withBorder radius={6} aria-label={t('settings.sectionsLabel')} data-testid="settings-list" style={{ overflow: 'hidden' }}>
      {rows}
    </Paper>
  );
}

function SectionRow({ id, current, onOpen }: { id: SettingsSectionId; current?: SettingsSectionId; onOpen: (section: SettingsSectionId) => void }) {
  const { t } = useTranslation();
  const hint = useHint(id);
  const Icon = ICONS[id];
  const title = t(`settings.sections.${id}.title`);
  if (current) {
    const active = current === id;
    return (
      <NavLink
        component="button"
        type="button"
        label={title}
        leftSection={<Icon size={18} />}
        active={active}
        aria-current={active ? 'page' : undefined}
        title={hint}
        onClick={() => onOpen(id)}
        style={{ borderRadius: 6 }}
        data-testid={`settings-nav-${id}`}
      />
    );
  }
  return (
    <NavLink
      component="button"
      type="button"
      label={title}
      description={hint}
      leftSection={
        <ThemeIcon variant="light" size={34} radius="md">
          <Icon size={18} />
        </ThemeIcon>
      }
      rightSection={<IconChevronRight size={16} />}
      onClick={() => onOpen(id)}
      py="sm"
      styles={{ label: { fontWeight: 600 } }}
      style={{ borderTop: id === SETTINGS_SECTIONS[0] ? undefined : '1px solid var(--mantine-color-default-border)' }}
      data-testid={`settings-row-${id}`}
    />
  );
}

/** Signing out, at the end of the list: as near as it was on the one long page (a signed-in user only). */
function LogoutRow({ wide }: { wide: boolean }) {
  const { t } = useTranslation();
  const store = useStore();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const logout = useMutation({ mutationFn: () => signOut(store) });
  if (!loggedIn) return null;
  return (
    <NavLink
      component="button"
      type="button"
      label={t('settings.logout')}
      // The icon is red; the words keep the text colour, which reads in both schemes.
      leftSection={wide ? <IconLogout size={18} color="var(--mantine-color-red-6)" /> : <ThemeIcon variant="light" color="red" size={34} radius="md"><IconLogout size={18} /></ThemeIcon>}
      disabled={logout.isPending}
      onClick={() => logout.mutate()}
      py={wide ? undefined : 'sm'}
      style={wide ? { borderRadius: 6 } : { borderTop: '1px solid var(--mantine-color-default-border)' }}
      data-testid="settings-logout"
    />
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
