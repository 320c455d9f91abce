import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useInstalledAppMode } from '../app-shell/installed-app.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { PageFrame } from '../ui/page-frame.tsx';
import './strings.ts';

export interface NewcomerFrameProps {
  title: string;
  onBack: () => void;
  backLabel?: string;
  width?: number;
  children: ReactNode;
}

/**
 * Layout 1 for the newcomers' pages (/home, /guide, /helper, /feedback): the back bar on a narrow
 * screen, and in installed-app mode too, where the browser's own back button is gone.
 */
export function NewcomerFrame({ title, onBack, backLabel, width = 880, children }: NewcomerFrameProps) {
  const { t } = useTranslation();
  const { isH5 } = usePlatform();
  const installed = useInstalledAppMode();
  return (
    <PageFrame title={title} onBack={onBack} backLabel={backLabel ?? t('newcomers.backToChat')} narrow={isH5 || installed} width={width} backBarTestId="newcomers-back-bar">
      {children}
    </PageFrame>
  );
}
