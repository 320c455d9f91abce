import { lazy, useEffect } from 'react';
import { useLocation, useParams } from 'wouter';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { isSettingsSection, settingsPath, type SettingsSectionId } from '../settings/sections.ts';
import { lazyPiece } from '../ui/error-boundary.tsx';
import { ShareSettingsSection } from './chat-share.tsx';
import { FAVOURITES_PATH, FavouritesSettingsSection } from './favourites-routes.tsx';
import { GetExtensionSettingsSection, HelpSettingsSection, NotFoundRoute } from './newcomers-routes.tsx';
import { PageSuspense } from './page-suspense.tsx';
import { SettingsLayout } from './settings-layout.tsx';
import { MemorySettingsSection, PersonalizationSettingsSection } from './personalization-routes.tsx';
import { PlanSettingsSection } from './plans-routes.tsx';
import { PROMPT_SETTING_PATH, PromptSettingsSettingsSection } from './quick-functions-routes.tsx';
import { SiderSettingSettingsSection } from './sider-setting-routes.tsx';

/** Not needed to open the app: fetched when first visited. */
const SettingsPage = lazy(() => import('../settings/settings-page.tsx').then((module) => ({ default: module.SettingsPage })));
/** Points and plan: the balance, check-in, promo codes and history. */
const PointsSection = lazyPiece(() => import('../points/points-section.tsx').then((module) => ({ default: module.PointsSection })));
/** Extension: translation of pages, selections and typed text (components/translate-settings). */
const TranslationSettingsSection = lazyPiece(() => import('../translate-settings/translation-settings.tsx').then((module) => ({ default: module.TranslationSettings })));
/** Account: the way to the invite page. */
const InviteSettingsSection = lazyPiece(() => import('../invite/invite-entry.tsx').then((module) => ({ default: module.InviteSettingsSection })));

/** General: the way to the Translate page. */
const TranslateSettingsSection = lazyPiece(() => import('../translate/translate-entry.tsx').then((module) => ({ default: module.TranslateSettingsSection })));

/** What other features add to each section: fetched beside the settings page's own chunk when the section opens. */
const PIECES: Record<SettingsSectionId, { preload: () => Promise<unknown> }[]> = {
  general: [HelpSettingsSection, TranslateSettingsSection],
  account: [InviteSettingsSection],
  points: [PointsSection, PlanSettingsSection],
  prompts: [PromptSettingsSettingsSection, FavouritesSettingsSection],
  privacy: [PersonalizationSettingsSection, MemorySettingsSection, ShareSettingsSection],
  extension: [SiderSettingSettingsSection, TranslationSettingsSection, GetExtensionSettingsSection],
};

/**
 * /setting and /setting/<section> (components/settings/sections.ts): the list on a narrow screen, a
 * section beside the list on a wide one (General at /setting), each section with what other features
 * add to it. An address of no section is the not-found page.
 */
export function SettingsRoute() {
  const [, navigate] = useLocation();
  const { section } = useParams<{ section?: string }>();
  const { isH5, isExtension } = usePlatform();
  const known = section === undefined || isSettingsSection(section);
  const shown: SettingsSectionId | null = section && isSettingsSection(section) ? section : isH5 ? null : 'general';
  useEffect(() => {
    if (known && shown) for (const piece of PIECES[shown]) void piece.preload();
  }, [known, shown]);
  if (!known) return <NotFoundRoute />;
  return (
    <PageSuspense>
      <SettingsLayout active={shown}>
        <SettingsPage
          section={section as SettingsSectionId | undefined}
          onBack={() => navigate('/')}
          onOpen={(next) => navigate(settingsPath(next))}
          sections={{
            general: (
              <>
                <HelpSettingsSection onNavigate={navigate} />
                <TranslateSettingsSection onOpen={() => navigate('/translate')} />
              </>
            ),
            account: <InviteSettingsSection onOpen={() => navigate('/invited')} />,
            points: (
              <>
                <PointsSection />
                <PlanSettingsSection onNavigate={navigate} />
              </>
            ),
            prompts: (
              <>
                <PromptSettingsSettingsSection onOpen={() => navigate(PROMPT_SETTING_PATH)} />
                <FavouritesSettingsSection onOpen={() => navigate(FAVOURITES_PATH)} />
              </>
            ),
            privacy: (
              <>
                <PersonalizationSettingsSection />
                <MemorySettingsSection />
                <ShareSettingsSection />
              </>
            ),
            extension: (
              <>
                <SiderSettingSettingsSection onOpenPrompts={() => navigate(PROMPT_SETTING_PATH)} />
                <TranslationSettingsSection />
                {!isExtension && <GetExtensionSettingsSection onNavigate={navigate} />}
              </>
            ),
          }}
        />
      </SettingsLayout>
    </PageSuspense>
  );
}
