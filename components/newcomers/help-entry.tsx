import { Button, Group, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconFileText } from '../ui/icons.tsx';
import './strings.ts';

/** Settings' section pointing at the help centre and the installation guide. */
export function HelpSettingsSection({ onNavigate }: { onNavigate: (path: string) => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius={6} data-testid="help-settings-section">
      <Group justify="space-between" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <IconFileText size={18} />
          <Text fw={600}>{t('newcomers.helper.title')}</Text>
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="default" onClick={() => onNavigate('/guide')}>
            {t('newcomers.home.guide')}
          </Button>
          <Button size="xs" variant="light" onClick={() => onNavigate('/helper')}>
            {t('newcomers.helper.title')}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
