import { Button, Group, SegmentedControl, Stack, Text, TextInput, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useAtomValue, useSetAtom, useStore } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getUserByLogin, saveUserSetting, updateNickName } from '../../shared/api/user.ts';
import { authActionAtom, isLoggedInAtom, userInfoAtom } from '../../shared/atoms/auth.ts';
import { openLoginDialogAtom } from '../../shared/atoms/login-dialog.ts';
import type { Language } from '../../shared/contracts/common.ts';
import { currentLanguage, setLanguage } from '../../shared/i18n/i18n.ts';
import { DEFAULT_SERVER_URL, serverUrlPersisted } from '../../shared/platform/server-url.ts';
import { peekPersisted, writePersisted } from '../../shared/storage/active.ts';
import { planName } from '../../shared/utils/plan-level.ts';
import { signOut, signOutEverywhere } from '../app-shell/account.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { notifyError, notifySuccess, onMutationError } from '../ui/notify.ts';
import { PageHeader } from '../ui/page-frame.tsx';
import { SettingsSection } from '../ui/settings-section.tsx';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import strings from '../../locales/features/settings.en.json';

addEnglishStrings(strings);

export interface SettingsPageProps {
  onBack: () => void;
  /** Sections of other features (points), composed by components/layout; shown after the account. */
  sections?: React.ReactNode;
}

/** The settings layout, general section: language, appearance, the server (extension only) and the account. */
export function SettingsPage({ onBack, sections }: SettingsPageProps) {
  const { t } = useTranslation();
  const { isExtension } = usePlatform();
  return (
    <Stack maw={640} mx="auto" p="md" gap="md">
      <PageHeader title={t('settings.title')} backLabel={t('settings.back')} onBack={onBack} />
      <LanguageSection />
      <AppearanceSection />
      {isExtension && <ServerSection />}
      <AccountSection />
      {sections}
    </Stack>
  );
}

function LanguageSection() {
  const { t } = useTranslation();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const [language, setShown] = useState<Language>(currentLanguage());
  const change = async (next: Language) => {
    setShown(next);
    await setLanguage(next);
    // The account keeps the choice too, so the web app and the extension start in it.
    if (loggedIn) await saveUserSetting({ language: next }).catch(() => notifyError(t('settings.updateFailed')));
  };
  return (
    <SettingsSection title={t('settings.language')}>
      <SegmentedControl
        value={language}
        onChange={(value) => void change(value as Language)}
        data={[
          { value: 'en', label: 'English' },
          { value: 'zh', label: '中文' },
        ]}
        aria-label={t('settings.language')}
      />
    </SettingsSection>
  );
}

/** Light, dark, or as the system is set (the default); the pages sharing its storage (side panel, popup) follow at once. */
function AppearanceSection() {
  const { t } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <SettingsSection title={t('settings.appearance')}>
      <SegmentedControl
        value={colorScheme}
        onChange={(value) => setColorScheme(value as MantineColorScheme)}
        data={[
          { value: 'light', label: t('settings.appearanceLight') },
          { value: 'dark', label: t('settings.appearanceDark') },
          { value: 'auto', label: t('settings.appearanceAuto') },
        ]}
        aria-label={t('settings.appearance')}
      />
    </SettingsSection>
  );
}

/** A server address: http(s) only, kept without a trailing slash or path. */
export function normalizeServerUrl(input: string): string | null {
  try {
    const url = new URL(input.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin;
  } catch {
    return null;
  }
}

function ServerSection() {
  const { t } = useTranslation();
  const [value, setValue] = useState(peekPersisted(serverUrlPersisted) ?? DEFAULT_SERVER_URL);
  const [error, setError] = useState<string | null>(null);
  const store = useStore();

  const save = async (next: string | null) => {
    const current = peekPersisted(serverUrlPersisted) ?? DEFAULT_SERVER_URL;
    if ((next ?? DEFAULT_SERVER_URL) === current) return;
    // A token belongs to the server that issued it: revoked there before the switch.
    await signOut(store);
    await writePersisted(serverUrlPersisted, next);
    setValue(next ?? DEFAULT_SERVER_URL);
    notifySuccess(t('settings.serverSaved'));
  };

  return (
    <SettingsSection title={t('settings.server')}>
      <Stack gap="xs">
        <Text size="xs" c="dimmed">
          {t('settings.serverHint')}
        </Text>
        <TextInput
          aria-label={t('settings.server')}
          value={value}
          error={error}
          onChange={(event) => {
            setValue(event.currentTarget.value);
            setError(null);
          }}
        />
        <Group gap="xs">
          <Button
            onClick={() => {
              const url = normalizeServerUrl(value);
              if (!url) return setError(t('settings.serverInvalid'));
              void save(url === DEFAULT_SERVER_URL ? null : url);
            }}
          >
            {t('settings.save')}
          </Button>
          <Button variant="default" onClick={() => void save(null)}>
            {t('settings.serverReset')}
          </Button>
        </Group>
      </Stack>
    </SettingsSection>
  );
}

function AccountSection() {
  const { t } = useTranslation();
  const user = useAtomValue(userInfoAtom);
  const loggedIn = useAtomValue(isLoggedInAtom);
  const auth = useSetAtom(authActionAtom);
  const openLogin = useSetAtom(openLoginDialogAtom);
  const [name, setName] = useState(user?.userName ?? '');
  const [nameError, setNameError] = useState<string | null>(null);

  const rename = useMutation({
    mutationFn: async (userName: string) => {
      await updateNickName(userName);
      return getUserByLogin();
    },
    onSuccess: async (userInfo) => {
      await auth({ type: 'userInfo', userInfo });
      notifySuccess(t('settings.nicknameSaved'));
    },
    onError: onMutationError((message) => message || t('settings.updateFailed')),
  });

  const store = useStore();
  const logout = useMutation({ mutationFn: () => signOut(store) });
  const logoutEverywhere = useMutation({
    mutationFn: () => signOutEverywhere(store),
    onError: (error) => notifyError(error instanceof Error ? error.message : t('settings.logoutEverywhereFailed')),
  });

  if (!loggedIn) {
    return (
      <SettingsSection title={t('settings.account')}>
        <Button onClick={() => openLogin()}>{t('settings.login')}</Button>
      </SettingsSection>
    );
  }
  return (
    <SettingsSection title={t('settings.account')}>
      <Stack gap="xs">
        <Text size="sm">
          {t('settings.emailLine', { email: user?.email ?? '' })}
        </Text>
        <Text size="sm">
          {t('settings.planLine', { plan: user?.vipOrder ? planName(user.vipOrder.vipPackageLevel, user.vipOrder.vipPackageName, t) : t('chat.sider.freeVersion') })}
        </Text>
        <Group align="flex-start" gap="xs">
          <TextInput
            style={{ flex: 1 }}
            label={t('settings.nickname')}
            value={name}
            maxLength={50}
            error={nameError}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setNameError(null);
            }}
          />
          <Button
            mt={24}
            loading={rename.isPending}
            onClick={() => (name.trim() ? rename.mutate(name.trim()) : setNameError(t('settings.nicknameRequired')))}
          >
            {t('settings.save')}
          </Button>
        </Group>
        <Group>
          <Button color="red" variant="light" loading={logout.isPending} onClick={() => logout.mutate()}>
            {t('settings.logout')}
          </Button>
          <Button color="red" variant="subtle" loading={logoutEverywhere.isPending} onClick={() => logoutEverywhere.mutate()}>
            {t('settings.logoutEverywhere')}
          </Button>
        </Group>
      </Stack>
    </SettingsSection>
  );
}
