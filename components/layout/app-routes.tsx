import { useStore } from 'jotai';
import { lazy, useEffect } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { recordPageView } from '../../shared/api/tracking.ts';
import { keepInviteCodeFromUrl } from '../../shared/atoms/invite-code.ts';
import { useFreshUserInfo } from '../app-shell/account.ts';
import type { LoginDialogProps } from '../login/login-dialog.tsx';
import { loginFromUrl } from '../login/url-login.ts';
import { ChatLayout } from './chat-layout.tsx';
import { PageSuspense } from './page-suspense.tsx';
import { OfflineNotice } from '../newcomers/offline-notice.tsx';
import { FeedbackRoute, GuideRoute, HelperRoute, HomeRoute, NotFoundRoute } from './newcomers-routes.tsx';
import { PayResultRoute, PricingRoute, SubscriptionRoute, UserVipRoute } from './plans-routes.tsx';
import { PROMPT_SETTING_PATH, PromptSettingRoute } from './quick-functions-routes.tsx';
import { SIDER_SETTING_PATH, SiderSettingRoute } from './sider-setting-routes.tsx';
import { SharedChatRoute } from './chat-share.tsx';
import { FavouriteEditRoute, FavouritesRoute } from './favourites-routes.tsx';
import { SettingsRoute } from './settings-routes.tsx';
import { deferred } from '../ui/deferred.tsx';
import { ErrorBoundary } from '../ui/error-boundary.tsx';

/**
 * The plan pages and settings keep their path after a login (a visitor about to subscribe stays on the
 * plans; one who signed in from a settings section sees it filled in).
 */
const KEEP_PATHS = /^\/(pricing|subscription|user-vip|setting)(\/|$)/;

/**
 * The login dialog and a login link's question are closed when a page opens: chunks of their own,
 * fetched as the first screen renders (they mount with it), so a click on Sign in finds them there.
 */
const LoginDialog = deferred<LoginDialogProps>(() => import('../login/login-dialog.tsx').then((module) => module.LoginDialog)).Component;
const LinkLoginDialog = deferred<object>(() => import('../login/link-login-dialog.tsx').then((module) => module.LinkLoginDialog)).Component;

/**
 * The routes of this release: the chat layout at / and /{id}, settings (/setting and /setting/{section}:
 * settings-routes.tsx), invite friends (/invited), the campaigns (/campaigns), the Translate page (/translate), the plan pages (/pricing, /pricing/pay, /subscription,
 * /user-vip: plans-routes.tsx), the newcomers' pages (/home, /guide, /helper, /feedback:
 * newcomers-routes.tsx) and the not-found page; around them what every screen has: the login dialog,
 * page views (with a kept invite code), URL logins, a fresh copy of the user and the offline notice.
 */
export function AppRoutes() {
  const [path, navigate] = useLocation();
  const store = useStore();

  // ?inviteCode= is kept for a sign-up (and leaves the address bar); page views carry the kept code.
  useEffect(() => {
    void keepInviteCodeFromUrl().then((inviteCode) => recordPageView(path, inviteCode ? { inviteCode } : {}));
    // Only with the user's consent and the operator's analytics set up (shared/api/analytics.ts, a chunk of its own).
    void import('../../shared/api/analytics.ts').then(({ sendAnalyticsPageView }) => sendAnalyticsPageView(path), () => false);
  }, [path]);

  // ?token= or ?tempKey= log in and keep the path.
  useEffect(() => {
    void loginFromUrl(store);
  }, [store]);

  useFreshUserInfo();

  return (
    <>
      {/* Per route: a screen that fails shows its way out, and the next address starts afresh. */}
      <ErrorBoundary resetKey={path}>
        <Switch>
          <Route path="/setting/:section?" component={SettingsRoute} />
          <Route path="/invited" component={InviteRoute} />
          <Route path="/campaigns" component={CampaignsRoute} />
          <Route path="/translate" component={TranslateRoute} />
          <Route path="/pricing" component={PricingRoute} />
          <Route path="/pricing/pay" component={PayResultRoute} />
          <Route path="/subscription" component={SubscriptionRoute} />
          <Route path="/user-vip" component={UserVipRoute} />
          <Route path={SIDER_SETTING_PATH} component={SiderSettingRoute} />
          <Route path={PROMPT_SETTING_PATH} component={PromptSettingRoute} />
          <Route path="/ans-fav/list" component={FavouritesRoute} />
          <Route path="/ans-fav/edit/:id" component={FavouriteEditRoute} />
          <Route path="/home" component={HomeRoute} />
          <Route path="/guide" component={GuideRoute} />
          <Route path="/helper" component={HelperRoute} />
          <Route path="/helper/:slug" component={HelperRoute} />
          <Route path="/feedback" component={FeedbackRoute} />
          <Route path="/share/:shareId" component={SharedChatRoute} />
          {/* Development builds only (import.meta.env.DEV is false in a production build, which then drops the page's chunk). */}
          {import.meta.env.DEV && <Route path={LOCAL_FILE_PATH} component={LocalFileRoute} />}
          <Route path="/:id?" component={ChatLayout} />
          <Route component={NotFoundRoute} />
        </Switch>
      </ErrorBoundary>
      <OfflineNotice />
      <LoginDialog onLoggedIn={() => !KEEP_PATHS.test(path) && navigate('/')} />
      <LinkLoginDialog />
    </>
  );
}

/**
 * /local_file, in development builds only (product spec §2): a local file through the page reader.
 * Declared behind import.meta.env.DEV too, so that a production build has no chunk of it at all.
 */
const LOCAL_FILE_PATH = '/local_file';
const LocalFilePage = import.meta.env.DEV ? lazy(() => import('../local-file/local-file-page.tsx').then((module) => ({ default: module.LocalFilePage }))) : null;

function LocalFileRoute() {
  const [, navigate] = useLocation();
  if (!LocalFilePage) return <NotFoundRoute />;
  return (
    <PageSuspense>
      <LocalFilePage onBack={() => navigate('/')} />
    </PageSuspense>
  );
}

/** The invite page (settings' way to it: settings-routes.tsx): fetched when first shown. */
const InvitePage = lazy(() => import('../invite/invite-page.tsx').then((module) => ({ default: module.InvitePage })));

function InviteRoute() {
  const [, navigate] = useLocation();
  return (
    <PageSuspense>
      <InvitePage onBack={() => navigate('/')} />
    </PageSuspense>
  );
}

/** The campaigns page (the sidebar's way to it): fetched when first shown. */
const CampaignsPage = lazy(() => import('../campaigns/campaigns-page.tsx').then((module) => ({ default: module.CampaignsPage })));

function CampaignsRoute() {
  const [, navigate] = useLocation();
  return (
    <PageSuspense>
      <CampaignsPage onBack={() => navigate('/')} />
    </PageSuspense>
  );
}

/** The Translate page (the sidebar's and settings' way to it): fetched when first shown. */
const TranslatePage = lazy(() => import('../translate/translate-page.tsx').then((module) => ({ default: module.TranslatePage })));

function TranslateRoute() {
  const [, navigate] = useLocation();
  return (
    <PageSuspense>
      <TranslatePage onBack={() => navigate('/')} />
    </PageSuspense>
  );
}
