import { useTranslation } from 'react-i18next';
import en from '../../locales/features/translate.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { IconLanguage } from '../ui/icons.tsx';
import { SettingsLinkSection } from '../ui/settings-link-section.tsx';

addEnglishStrings(en);

/** Settings' way to the Translate page (/translate). */
export function TranslateSettingsSection({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <SettingsLinkSection title={t('translate.title')} hint={t('translate.settingsHint')} label={t('translate.title')} icon={<IconLanguage size={16} />} onOpen={onOpen} testId="settings-translate" />
  );
}
