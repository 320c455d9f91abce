import { Button, Stack, Text, Title } from '@mantine/core';
import { useStore } from 'jotai';
import { lazy, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Switch, useLocation } from 'wouter';
import { recordPageView } from '../../shared/api/tracking.ts';
import { keepInviteCodeFromUrl } from '../../shared/atoms/invite-code.ts';
import { useFreshUserInfo } from '../app-shell/account.ts';
import { LinkLoginDialog } from '../login/link-login-dialog.tsx';
import { LoginDialog } from '../login/login-dialog.tsx';
import { loginFromUrl } from '../login/url-login.ts';
import { ChatLayout } from './chat-layout.tsx';
import { PageSuspense } from './page-suspense.tsx';
import { PayResultRoute, PlanSettingsSection, PricingRoute, SubscriptionRoute, UserVipRoute } from './plans-routes.tsx';

/** The plan pages keep their path after a login (a visitor about to subscribe stays on the plans). */
const PLAN_PATHS = /^\/(pricing|subscription|user-vip)(\/|$)/;

/**
 * The routes of this release: the chat layout at / and /{id}, settings, invite friends (/invited), the
 * plan pages (/pricing, /pricing/pay, /subscription, /user-vip: plans-routes.tsx) and the not-found page; around them what every screen has: the login dialog, page views (with a kept
 * invite code), URL logins and a fresh copy of the user.
 */
export function AppRoutes() {
  const [path, navigate] = useLocation();
  const store = useStore();

  // ?inviteCode= is kept for a sign-up (and leaves the address bar); page views carry the kept code.
  useEffect(() => {
    void keepInviteCodeFromUrl().then((inviteCode) => recordPageView(path, inviteCode ? { inviteCode } : {}));
  }, [path]);

  // ?token= or ?tempKey= log in and keep the path.
  useEffect(() => {
    void loginFromUrl(store);
  }, [store]);

  useFreshUserInfo();

  return (
    <>
      <Switch>
        <Route path="/setting" component={SettingsRoute} />
        <Route path="/invited" component={InviteRoute} />
        <Route path="/pricing" component={PricingRoute} />
        <Route path="/pricing/pay" component={PayResultRoute} />
        <Route path="/subscription" component={SubscriptionRoute} />
        <Route path="/user-vip" component={UserVipRoute} />
        <Route path="/:id?" component={ChatLayout} />
        <Route component={NotFound} />
      </Switch>
      <LoginDialog onLoggedIn={() => !PLAN_PATHS.test(path) && navigate('/')} />
      <LinkLoginDialog />
    </>
  );
}

/** Not needed to open the app: fetched when first visited. */
const SettingsPage = lazy(() => import('../settings/settings-page.tsx').then((module) => ({ default: module.SettingsPage })));
/** Settings' Points section (balance, check-in, promo codes, history): fetched with the page. */
const loadPointsSection = () => import('../points/points-section.tsx');
const PointsSection = lazy(() => loadPointsSection().then((module) => ({ default: module.PointsSection })));

function SettingsRoute() {
  const [, navigate] = useLocation();
  // Fetched beside the page's own chunk, not after it.
  useEffect(() => void loadPointsSection().catch(() => undefined), []);
  return (
    <PageSuspense>
      <SettingsPage
        onBack={() => navigate('/')}
        sections={
          <>
            <PointsSection />
            <InviteSettingsSection onOpen={() => navigate('/invited')} />
            <PlanSettingsSection onNavigate={navigate} />
          </>
        }
      />
    </PageSuspense>
  );
}

/** The invite page and settings' way to it: fetched when first shown. */
const InvitePage = lazy(() => import('../invite/invite-page.tsx').then((module) => ({ default: module.InvitePage })));
const InviteSettingsSection = lazy(() => import('../invite/invite-entry.tsx').then((module) => ({ default: module.InviteSettingsSection })));

function InviteRoute() {
  const [, navigate] = useLocation();
  return (
    <PageSuspense>
      <InvitePage onBack={() => navigate('/')} />
    </PageSuspense>
  );
}

function NotFound() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  return (
    <Stack align="center" justify="center" h="100dvh" gap="sm" p="md">
      <Title order={2}>404</Title>
      <Text c="dimmed">{t('notFound.message')}</Text>
      <Button onClick={() => navigate('/')}>{t('notFound.home')}</Button>
    </Stack>
  );
}
