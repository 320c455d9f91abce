import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/plans.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { SignInPrompt as SharedSignInPrompt } from '../app-shell/sign-in-prompt.tsx';
import { PageFrame } from '../ui/page-frame.tsx';

addEnglishStrings(en);

export interface PlansFrameProps {
  title: string;
  /** Where the back bar (narrow screens) and the back link (wide ones) lead. */
  onBack: () => void;
  backLabel?: string;
  /** The content's width on a wide screen. */
  width?: number;
  children: ReactNode;
}

/**
 * The frame of the plan pages (layout 1): the shared page frame (components/ui/page-frame.tsx) with
 * the plans' back label and a back bar the tests find by its test id.
 */
export function PlansFrame({ title, onBack, backLabel, width = 720, children }: PlansFrameProps) {
  const { t } = useTranslation();
  const { isH5 } = usePlatform();
  return (
    <PageFrame title={title} onBack={onBack} backLabel={backLabel ?? t('plans.back')} narrow={isH5} width={width} backBarTestId="plans-back-bar">
      {children}
    </PageFrame>
  );
}

/** A visitor's way in on a plan page: the shared prompt (components/app-shell/sign-in-prompt.tsx) with the plans' words. */
export function SignInPrompt({ message }: { message: string }) {
  const { t } = useTranslation();
  return <SharedSignInPrompt message={message} signInLabel={t('plans.signIn')} notice="plans.signInTip" />;
}
