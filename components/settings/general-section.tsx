import { Button, Group, SegmentedControl, Stack, Switch, Text, TextInput, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue, useStore } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { analyticsConsentPersisted, getAnalyticsStatus } from '../../shared/api/analytics.ts';
import { saveUserSetting } from '../../shared/api/user.ts';
import { isLoggedInAtom } from '../../shared/atoms/auth.ts';
import type { Language } from '../../shared/contracts/common.ts';
import { currentLanguage, setLanguage } from '../../shared/i18n/i18n.ts';
import { DEFAULT_SERVER_URL, serverUrlPersisted } from '../../shared/platform/server-url.ts';
import { peekPersisted, writePersisted } from '../../shared/storage/active.ts';
import { signOut } from '../app-shell/account.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { notifyError, notifySuccess } from '../ui/notify.ts';
import { SettingsSection } from '../ui/settings-section.tsx';

/** Settings' General section, its own part: the language, the appearance and (in the extension) the server. */
export function GeneralSettings() {
  const { isExtension } = usePlatform();
  return (
    <>
      <LanguageSection />
      <AppearanceSection />
      <UsageStatisticsSection />
      {isExtension && <ServerSection />}
    </>
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

/**
 * "Share anonymous usage statistics": off until the user turns it on, and shown only when the
 * server has analytics set up (shared/api/analytics.ts); each page's views go to the server, which
 * forwards them to the operator's analytics provider.
 */
function UsageStatisticsSection() {
  const { t } = useTranslation();
  const analytics = useQuery({ queryKey: ['analytics-status'], queryFn: getAnalyticsStatus, staleTime: Infinity, retry: false });
  const [consent, setConsent] = useState(() => peekPersisted(analyticsConsentPersisted));
  if (!analytics.data?.enabled) return null;
  return (
    <SettingsSection title={t('settings.usageStatistics')}>
      <Stack gap="xs">
        <Switch
          label={t('settings.usageStatisticsShare')}
          checked={consent}
          onChange={(event) => {
            const next = event.currentTarget.checked;
            setConsent(next);
            void writePersisted(analyticsConsentPersisted, next);
          }}
        />
        <Text size="xs" c="dimmed">
          {t('settings.usageStatisticsHint')}
        </Text>
      </Stack>
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
