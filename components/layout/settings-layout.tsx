import { lazy, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { settingsPath, type SettingsSectionId } from '../settings/sections.ts';

/** The frame and the sections' navigation: a chunk of their own, fetched with the first settings page opened. */
const SettingsFrame = lazy(() => import('../settings/settings-frame.tsx').then((module) => ({ default: module.SettingsFrame })));

/**
 * The spec's settings layout, the one frame of /setting (and its sections), /subscription,
 * /sider_setting and /prompt_setting: the sections' list beside the page on a wide screen, tabs under
 * the page's back bar on a narrow one; `active` is the section the page belongs to. Inside a route's
 * PageSuspense, which shows while the frame's chunk arrives.
 */
export function SettingsLayout({ active, children }: { active: SettingsSectionId | null; children: ReactNode }) {
  const [, navigate] = useLocation();
  return (
    <SettingsFrame active={active} onOpen={(section) => navigate(settingsPath(section))} onBack={() => navigate('/')}>
      {children}
    </SettingsFrame>
  );
}

/** The section each page of the layout outside /setting belongs to (its item is marked in the navigation). */
export const SETTINGS_LAYOUT_SECTION = {
  subscription: 'points',
  siderSetting: 'extension',
  promptSetting: 'prompts',
} as const satisfies Record<string, SettingsSectionId>;
