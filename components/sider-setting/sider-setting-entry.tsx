import { Anchor, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import strings from '../../locales/features/sider-setting.en.json';

addEnglishStrings(strings);

/** Settings' way to /sider_setting (the toolbar, the floating icon, the shortcuts). */
export function SiderSettingSection({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius={6} data-testid="sider-setting-entry">
      <Text fw={600} mb={4}>
        {t('siderSetting.title')}
      </Text>
      <Text size="sm" c="dimmed" mb="xs">
        {t('siderSetting.toolbar.hint')}
      </Text>
      <Anchor component="button" type="button" size="sm" onClick={onOpen}>
        {t('siderSetting.open')}
      </Anchor>
    </Paper>
  );
}
