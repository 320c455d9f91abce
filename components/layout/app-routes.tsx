import { Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useStore } from 'jotai';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Switch, useLocation } from 'wouter';
import { recordPageView } from '../../shared/api/tracking.ts';
import { useFreshUserInfo } from '../app-shell/account.ts';
import { LinkLoginDialog } from '../login/link-login-dialog.tsx';
import { LoginDialog } from '../login/login-dialog.tsx';
import { loginFromUrl } from '../login/url-login.ts';
import { ChatLayout } from './chat-layout.tsx';

/**
 * The routes of this release: the chat layout at / and /{id}, settings and the not-found page;
 * around them what every screen has: the login dialog, page views, URL logins and a fresh copy of
 * the user.
 */
export function AppRoutes() {
  const [path, navigate] = useLocation();
  const store = useStore();

  useEffect(() => {
    void recordPageView(path);
  }, [path]);

  // ?token= or ?tempKey= log in and keep the path.
  useEffect(() => {
    void loginFromUrl(store);
  }, [store]);

  useFreshUserInfo();

  return (
    <>
      <Switch>
        <Route path="/setting">
          <SettingsRoute />
        </Route>
        <Route path="/:id?">
          <ChatLayout />
        </Route>
        <Route>
          <NotFound />
        </Route>
      </Switch>
      <LoginDialog onLoggedIn={() => navigate('/')} />
      <LinkLoginDialog />
    </>
  );
}

/** Not needed to open the app: fetched when first visited. */
const SettingsPage = lazy(() => import('../settings/settings-page.tsx').then((module) => ({ default: module.SettingsPage })));

function SettingsRoute() {
  const [, navigate] = useLocation();
  return (
    <Suspense
      fallback={
        <Center h="100dvh">
          <Loader size="sm" />
        </Center>
      }
    >
      <SettingsPage onBack={() => navigate('/')} />
    </Suspense>
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
