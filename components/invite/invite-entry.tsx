import { Button, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconGift } from '../ui/icons.tsx';

/** Settings' way to the invite page (/invited). */
export function InviteSettingsSection({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius={6}>
      <Stack gap="xs" align="flex-start">
        <Text fw={600}>{t('invite.title')}</Text>
        <Text size="sm" c="dimmed">
          {t('invite.settingsHint')}
        </Text>
        <Button variant="light" leftSection={<IconGift size={16} />} onClick={onOpen}>
          {t('invite.title')}
        </Button>
      </Stack>
    </Paper>
  );
}
