import { useTranslation } from 'react-i18next';
import en from '../../locales/features/invite.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { IconGift } from '../ui/icons.tsx';
import { SettingsLinkSection } from '../ui/settings-link-section.tsx';

addEnglishStrings(en);

/** Settings' way to the invite page (/invited). */
export function InviteSettingsSection({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  return <SettingsLinkSection title={t('invite.title')} hint={t('invite.settingsHint')} label={t('invite.title')} icon={<IconGift size={16} />} onOpen={onOpen} />;
}
