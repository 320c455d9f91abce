import { Button, Stack, Text, Title } from '@mantine/core';
import { useStore } from 'jotai';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate, type RouteObject } from 'react-router';
import { recordPageView } from '../../shared/api/tracking.ts';
import { useFreshUserInfo } from '../app-shell/account.ts';
import { LoginDialog } from '../login/login-dialog.tsx';
import { loginFromUrl } from '../login/url-login.ts';
import { SettingsPage } from '../settings/settings-page.tsx';
import { ChatLayout } from './chat-layout.tsx';

/** What every screen has: the login dialog, page views, URL logins and a fresh copy of the user. */
function Root() {
  const navigate = useNavigate();
  const location = useLocation();
  const store = useStore();

  useEffect(() => {
    void recordPageView(location.pathname);
  }, [location.pathname]);

  // Spec §4: ?token= or ?tempKey= log in and keep the path.
  useEffect(() => {
    void loginFromUrl(store);
  }, [store]);

  useFreshUserInfo();

  return (
    <>
      <Outlet />
      <LoginDialog onLoggedIn={() => void navigate('/')} />
    </>
  );
}

function SettingsRoute() {
  const navigate = useNavigate();
  return <SettingsPage onBack={() => void navigate('/')} />;
}

function NotFound() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Stack align="center" justify="center" h="100dvh" gap="sm" p="md">
      <Title order={2}>404</Title>
      <Text c="dimmed">{t('notFound.message')}</Text>
      <Button onClick={() => void navigate('/')}>{t('notFound.home')}</Button>
    </Stack>
  );
}

/** Spec §2 routes of this release: the chat layout at / and /{id}, settings, and the not-found page. */
export const appRoutes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      { path: '/setting', element: <SettingsRoute /> },
      { path: '/:id?', element: <ChatLayout /> },
      { path: '*', element: <NotFound /> },
    ],
  },
];
