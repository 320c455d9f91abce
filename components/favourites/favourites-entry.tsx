import { useTranslation } from 'react-i18next';
import en from '../../locales/features/favourites.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { SettingsLinkSection } from '../ui/settings-link-section.tsx';
import { IconStar } from './favourite-icons.tsx';

addEnglishStrings(en);

/** Settings' way to the saved answers (/ans-fav/list). */
export function FavouritesSettingsSection({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <SettingsLinkSection
      title={t('favourites.title')}
      hint={t('favourites.settingsHint')}
      label={t('favourites.open')}
      icon={<IconStar size={16} />}
      onOpen={onOpen}
      testId="open-favourites"
    />
  );
}
