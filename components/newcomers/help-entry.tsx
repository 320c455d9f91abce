import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconDownload, IconFileText } from '../ui/icons.tsx';
import './strings.ts';

/** Settings' section pointing at the help centre and the installation guide. */
export function HelpSettingsSection({ onNavigate }: { onNavigate: (path: string) => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius={6} data-testid="help-settings-section">
      {/* A narrow screen (the side panel at 320 px) puts the buttons under the title. */}
      <Group justify="space-between" gap="xs">
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

/**
 * Settings' Extension section on the web page, beside the extension's own notice: where to get
 * Tandem for another browser (the download page) and how to install the package by hand (the guide).
 */
export function GetExtensionSection({ onNavigate }: { onNavigate: (path: string) => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius={6} data-testid="get-extension-section">
      <Stack gap="xs" align="flex-start">
        <Text fw={600}>{t('newcomers.getExtension.title')}</Text>
        <Text size="sm" c="dimmed">
          {t('newcomers.getExtension.hint')}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="light" leftSection={<IconDownload size={14} />} onClick={() => onNavigate('/home')}>
            {t('newcomers.getExtension.downloads')}
          </Button>
          <Button size="xs" variant="default" leftSection={<IconFileText size={14} />} onClick={() => onNavigate('/guide')}>
            {t('newcomers.home.guide')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
