import { useTranslation } from 'react-i18next';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import strings from '../../locales/features/sider-setting.en.json';
import { SettingsSection } from '../ui/settings-section.tsx';
import { HintedLink } from './hinted-link.tsx';

addEnglishStrings(strings);

/** Settings' way to /sider_setting (the toolbar, the floating icon, the shortcuts). */
export function SiderSettingSection({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    // The hint stands close under the title, as a section's description.
    <SettingsSection
      title={t('siderSetting.title')}
      testId="sider-setting-entry"
      description={<HintedLink hint={t('siderSetting.toolbar.hint')} label={t('siderSetting.open')} onOpen={onOpen} />}
    />
  );
}
