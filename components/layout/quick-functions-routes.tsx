import { lazy } from 'react';
import { useLocation } from 'wouter';
import { settingsPath } from '../settings/sections.ts';
import { PageSuspense } from './page-suspense.tsx';
import { SETTINGS_LAYOUT_SECTION, SettingsLayout } from './settings-layout.tsx';
import { lazyPiece } from '../ui/error-boundary.tsx';

/** /prompt_setting and settings' way to it: chunks fetched when first shown (not in the side panel's entry). */
const PromptSettingsPage = lazy(() => import('../quick-functions/prompt-settings-page.tsx').then((module) => ({ default: module.PromptSettingsPage })));

/** The user's prompts (quick functions), reached from settings' Prompts and tools section. */
export const PROMPT_SETTING_PATH = '/prompt_setting';

export function PromptSettingRoute() {
  const [, navigate] = useLocation();
  return (
    <PageSuspense>
      <SettingsLayout active={SETTINGS_LAYOUT_SECTION.promptSetting}>
        <PromptSettingsPage onBack={() => navigate(settingsPath('prompts'))} />
      </SettingsLayout>
    </PageSuspense>
  );
}

/** In settings' Prompts and tools section: the way to the prompts. */
export const PromptSettingsSettingsSection = lazyPiece(() =>
  import('../quick-functions/prompt-settings-entry.tsx').then((module) => ({ default: module.PromptSettingsSection })),
);
