import { lazy } from 'react';
import { useLocation } from 'wouter';
import { PageSuspense } from './page-suspense.tsx';
import { lazyPiece } from '../ui/error-boundary.tsx';

/** Where the toolbar's tools are pinned (the prompt settings page). */
const PROMPT_SETTING_PATH = '/prompt_setting';

/** /sider_setting and settings' way to it: fetched when first shown. */
const SiderSettingPage = lazy(() => import('../sider-setting/sider-setting-page.tsx').then((module) => ({ default: module.SiderSettingPage })));
const SiderSettingEntry = lazyPiece(() => import('../sider-setting/sider-setting-entry.tsx').then((module) => ({ default: module.SiderSettingSection })));

export const SIDER_SETTING_PATH = '/sider_setting';

export function SiderSettingRoute() {
  const [, navigate] = useLocation();
  return (
    <PageSuspense>
      <SiderSettingPage onBack={() => navigate('/setting')} onOpenPrompts={() => navigate(PROMPT_SETTING_PATH)} />
    </PageSuspense>
  );
}

/** In settings: the toolbar and floating icon settings. */
export function SiderSettingSettingsSection({ onOpen }: { onOpen: () => void }) {
  return <SiderSettingEntry onOpen={onOpen} />;
}
