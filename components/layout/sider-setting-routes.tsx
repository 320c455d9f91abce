import { lazy } from 'react';
import { useLocation } from 'wouter';
import { settingsPath } from '../settings/sections.ts';
import { PageSuspense } from './page-suspense.tsx';
import { SETTINGS_LAYOUT_SECTION, SettingsLayout } from './settings-layout.tsx';
import { lazyPiece } from '../ui/error-boundary.tsx';

/** Where the toolbar's tools are pinned (the prompt settings page). */
const PROMPT_SETTING_PATH = '/prompt_setting';

/** /sider_setting and settings' Extension section, which shows the same: one chunk, fetched when first shown. */
const SiderSettingPage = lazy(() => import('../sider-setting/sider-setting-page.tsx').then((module) => ({ default: module.SiderSettingPage })));

export const SIDER_SETTING_PATH = '/sider_setting';

export function SiderSettingRoute() {
  const [, navigate] = useLocation();
  return (
    <PageSuspense>
      <SettingsLayout active={SETTINGS_LAYOUT_SECTION.siderSetting}>
        <SiderSettingPage onBack={() => navigate(settingsPath('extension'))} onOpenPrompts={() => navigate(PROMPT_SETTING_PATH)} />
      </SettingsLayout>
    </PageSuspense>
  );
}

/** In settings' Extension section: the toolbar, the floating icon, the tools and the shortcuts (on the web page, the way to the extension). */
export const SiderSettingSettingsSection = lazyPiece(() => import('../sider-setting/sider-setting-page.tsx').then((module) => ({ default: module.SiderSettingPanels })));
