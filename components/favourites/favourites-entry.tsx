import { Button, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/favourites.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { IconStar } from './favourite-icons.tsx';

addEnglishStrings(en);

/** Settings' way to the saved answers (/ans-fav/list). */
export function FavouritesSettingsSection({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius={6}>
      <Stack gap="xs" align="flex-start">
        <Text fw={600}>{t('favourites.title')}</Text>
        <Text size="sm" c="dimmed">
          {t('favourites.settingsHint')}
        </Text>
        <Button variant="light" leftSection={<IconStar size={16} />} onClick={onOpen} data-testid="open-favourites">
          {t('favourites.open')}
        </Button>
      </Stack>
    </Paper>
  );
}
