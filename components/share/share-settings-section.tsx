import { Paper, Stack, Text } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { isLoggedInAtom } from '../../shared/atoms/auth.ts';
import { ShareLinkRow, useShareLinks } from './share-dialog.tsx';

/** Settings: every live link the user made, each revocable. */
export function ShareSettingsSection() {
  const { t } = useTranslation();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const { links, isSuccess } = useShareLinks();
  if (!loggedIn) return null;
  return (
    <Paper withBorder p="md" radius={6} data-testid="share-settings">
      <Stack gap="xs">
        <Text fw={600}>{t('share.settingsTitle')}</Text>
        <Text size="sm" c="dimmed">
          {t('share.settingsHint')}
        </Text>
        {isSuccess && links.length === 0 && <Text size="sm">{t('share.settingsEmpty')}</Text>}
        {links.length > 0 && (
          <Stack gap="sm" role="list" aria-label={t('share.settingsTitle')}>
            {links.map((link) => (
              <ShareLinkRow key={link.shareId} link={link} showTitle />
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
