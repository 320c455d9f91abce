import { Button, Group } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/plans.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { isLoggedInAtom, userInfoAtom } from '../../shared/atoms/auth.ts';
import { IconCrown } from '../ui/icons.tsx';
import { UserPlanSummary } from './plan-badge.tsx';
import { PlansFrame, SignInPrompt } from './plans-frame.tsx';

addEnglishStrings(en);

export interface UserPlanPageProps {
  onBack: () => void;
  onNavigate: (path: string) => void;
}

/** My plan (/user-vip): the plan card, and the ways to the plans and to the subscription. Visitors are asked to sign in. */
export function UserPlanPage({ onBack, onNavigate }: UserPlanPageProps) {
  const { t } = useTranslation();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const user = useAtomValue(userInfoAtom);
  return (
    <PlansFrame title={t('plans.userVip.title')} onBack={onBack} width={560}>
      {loggedIn && user ? (
        <>
          <UserPlanSummary user={user} />
          <Group gap="sm" grow>
            <Button leftSection={<IconCrown size={16} />} onClick={() => onNavigate('/pricing')}>
              {user.vipOrder ? t('plans.userVip.pricing') : t('plans.goPremium')}
            </Button>
            <Button variant="default" onClick={() => onNavigate('/subscription')}>
              {t('plans.userVip.subscription')}
            </Button>
          </Group>
        </>
      ) : (
        <SignInPrompt message={t('plans.userVip.signInPrompt')} />
      )}
    </PlansFrame>
  );
}
