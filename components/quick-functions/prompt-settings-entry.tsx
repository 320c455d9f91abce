import { useTranslation } from 'react-i18next';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { IconPuzzle } from '../ui/icons.tsx';
import { SettingsLinkSection } from '../ui/settings-link-section.tsx';
import strings from '../../locales/features/quick-functions.en.json';

addEnglishStrings(strings);

/** Settings' way to the prompt settings (/prompt_setting). */
export function PromptSettingsSection({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <SettingsLinkSection
      title={t('quickFunctions.settingsTitle')}
      hint={t('quickFunctions.settingsHint')}
      label={t('quickFunctions.open')}
      icon={<IconPuzzle size={16} />}
      onOpen={onOpen}
    />
  );
}
