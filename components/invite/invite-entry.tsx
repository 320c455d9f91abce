import { useTranslation } from 'react-i18next';
import { IconGift } from '../ui/icons.tsx';
import { SettingsLinkSection } from '../ui/settings-link-section.tsx';

/** Settings' way to the invite page (/invited). */
export function InviteSettingsSection({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  return <SettingsLinkSection title={t('invite.title')} hint={t('invite.settingsHint')} label={t('invite.title')} icon={<IconGift size={16} />} onOpen={onOpen} />;
}
