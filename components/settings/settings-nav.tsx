import { Box, Group, NavLink, Paper, ScrollArea, Stack, ThemeIcon, UnstyledButton } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useAtomValue, useStore } from 'jotai';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { isLoggedInAtom } from '../../shared/atoms/auth.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { signOut } from '../app-shell/account.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { IconChevronRight, IconCoin, IconPrompt, IconSettings, type IconProps } from '../ui/icons.tsx';
import { SETTINGS_SECTIONS, type SettingsSectionId } from './sections.ts';
import { IconBrowser, IconLogout, IconShield, IconUser } from './settings-icons.tsx';
import strings from '../../locales/features/settings.en.json';

addEnglishStrings(strings);

/**
 * The settings' sections as navigation: the list of /setting on a narrow screen, the list beside the
 * open page on a wide one (settings-frame.tsx), and the tabs under a page's back bar on a narrow one.
 */
const ICONS: Record<SettingsSectionId, ComponentType<IconProps>> = {
  general: IconSettings,
  account: IconUser,
  points: IconCoin,
  prompts: IconPrompt,
  privacy: IconShield,
  extension: IconBrowser,
};

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
export function SectionList({ current, onOpen }: { current?: SettingsSectionId; onOpen: (section: SettingsSectionId) => void }) {
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

/**
 * The sections as tabs, on a narrow screen under the back bar of a page of the settings layout (a
 * section, the subscription, the prompts, the extension's settings): a row that scrolls sideways in
 * the 320 px side panel, the open one marked.
 */
export function SettingsTabs({ current, onOpen }: { current: SettingsSectionId; onOpen: (section: SettingsSectionId) => void }) {
  const { t } = useTranslation();
  return (
    <Box component="nav" aria-label={t('settings.sectionsLabel')} data-testid="settings-tabs" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      <ScrollArea type="never">
        <Group gap={4} px={8} py={6} wrap="nowrap">
          {SETTINGS_SECTIONS.map((id) => {
            const active = id === current;
            return (
              <UnstyledButton
                key={id}
                onClick={() => onOpen(id)}
                aria-current={active ? 'page' : undefined}
                data-testid={`settings-tab-${id}`}
                px={10}
                py={4}
                fz="sm"
                style={{
                  whiteSpace: 'nowrap',
                  borderRadius: 6,
                  fontWeight: active ? 600 : undefined,
                  background: active ? 'var(--mantine-primary-color-light)' : undefined,
                  color: active ? 'var(--mantine-primary-color-light-color)' : undefined,
                }}
              >
                {t(`settings.sections.${id}.title`)}
              </UnstyledButton>
            );
          })}
        </Group>
      </ScrollArea>
    </Box>
  );
}
