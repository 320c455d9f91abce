import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/campaigns.en.json';
import { isLoggedInAtom } from '../../shared/atoms/auth.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { SignInPrompt } from '../app-shell/sign-in-prompt.tsx';
import { PageFrame } from '../ui/page-frame.tsx';
import { CampaignList } from './campaign-card.tsx';

addEnglishStrings(en);

export interface CampaignsPageProps {
  /** Back to the chat (/). */
  onBack: () => void;
}

/**
 * The campaigns page (/campaigns): every campaign running now for the user, the ones hidden from the
 * home screen too, with their rewards to claim. A visitor is asked to sign in.
 */
export function CampaignsPage({ onBack }: CampaignsPageProps) {
  const { t } = useTranslation();
  const { isH5 } = usePlatform();
  const loggedIn = useAtomValue(isLoggedInAtom);
  return (
    <PageFrame title={t('campaigns.title')} backLabel={t('campaigns.back')} onBack={onBack} narrow={isH5}>
      {loggedIn ? <CampaignList /> : <SignInPrompt message={t('campaigns.signInPrompt')} signInLabel={t('campaigns.signIn')} notice="campaigns.signInTip" />}
    </PageFrame>
  );
}
