import { lazy } from 'react';
import { useLocation } from 'wouter';
import { PageSuspense } from './page-suspense.tsx';
import { lazyPiece } from '../ui/error-boundary.tsx';

/** /prompt_setting and settings' way to it: chunks fetched when first shown (not in the side panel's entry). */
const PromptSettingsPage = lazy(() => import('../quick-functions/prompt-settings-page.tsx').then((module) => ({ default: module.PromptSettingsPage })));
const PromptSettingsEntry = lazyPiece(() => import('../quick-functions/prompt-settings-entry.tsx').then((module) => ({ default: module.PromptSettingsSection })));

/** The user's prompts (quick functions), in the settings layout. */
export const PROMPT_SETTING_PATH = '/prompt_setting';

export function PromptSettingRoute() {
  const [, navigate] = useLocation();
  return (
    <PageSuspense>
      <PromptSettingsPage onBack={() => navigate('/setting')} />
    </PageSuspense>
  );
}

/** In settings: the way to the prompts. */
export function PromptSettingsSettingsSection({ onOpen }: { onOpen: () => void }) {
  return <PromptSettingsEntry onOpen={onOpen} />;
}
