import { Alert, Button, Group, Text } from '@mantine/core';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/offline.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';

// Two sentences, on every screen: their own small file, not the newcomers' pages' words.
addEnglishStrings(en);

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/**
 * Offline: the browser says so, or the page is the app shell the service worker served because the
 * server could not be reached (it marks the page `<html data-offline="true">`).
 */
export function isOffline(): boolean {
  return navigator.onLine === false || document.documentElement.dataset.offline === 'true';
}

/** A notice across the top of the app while it cannot reach its server, instead of the browser's error page. */
export function OfflineNotice() {
  const { t } = useTranslation();
  const offline = useSyncExternalStore(subscribe, isOffline, () => false);
  if (!offline) return null;
  return (
    <Alert
      color="yellow"
      variant="filled"
      radius={0}
      p="xs"
      role="status"
      data-testid="offline-notice"
      style={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: 300 }}
    >
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text size="sm" c="dark.8">
          {t('offline.notice')}
        </Text>
        <Button size="compact-sm" variant="white" color="dark" onClick={() => window.location.reload()}>
          {t('offline.retry')}
        </Button>
      </Group>
    </Alert>
  );
}
