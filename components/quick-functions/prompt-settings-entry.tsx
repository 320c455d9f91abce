import { Button, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { IconPuzzle } from '../ui/icons.tsx';
import strings from '../../locales/features/quick-functions.en.json';

addEnglishStrings(strings);

/** Settings' way to the prompt settings (/prompt_setting). */
export function PromptSettingsSection({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius={6}>
      <Stack gap="xs" align="flex-start">
        <Text fw={600}>{t('quickFunctions.settingsTitle')}</Text>
        <Text size="sm" c="dimmed">
          {t('quickFunctions.settingsHint')}
        </Text>
        <Button variant="light" leftSection={<IconPuzzle size={16} />} onClick={onOpen}>
          {t('quickFunctions.open')}
        </Button>
      </Stack>
    </Paper>
  );
}
