import { Alert, Anchor, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue, useStore } from 'jotai';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { getUserByLogin } from '../../shared/api/user.ts';
import { tokenAtom } from '../../shared/atoms/auth.ts';
import type { UserInfo } from '../../shared/contracts/user.ts';
import { signOut } from '../../components/app-shell/account.ts';
import './strings.ts';

/** The signed-in account as the console checked it, keyed by the token (another login is checked again). */
const adminMeKey = ['admin', 'me'] as const;

export function useAdminMe() {
  const token = useAtomValue(tokenAtom);
  return useQuery({
    queryKey: [...adminMeKey, token],
    queryFn: () => getUserByLogin(),
    enabled: token !== null,
    staleTime: 60_000,
    retry: false,
  });
}

/** Signs this browser out (`leaving` meanwhile); the gate then sends it to the login page. */
export function useAdminSignOut(): { leaving: boolean; leave: () => void } {
  const store = useStore();
  const queryClient = useQueryClient();
  const [leaving, setLeaving] = useState(false);
  const leave = () => {
    setLeaving(true);
    void signOut(store).then(() => queryClient.removeQueries({ queryKey: adminMeKey }));
  };
  return { leaving, leave };
}

/**
 * The central login page, coming back to this very address: the login page hands a temp key to a
 * callback on its own origin, with the state this browser kept, and the console's entry signs in
 * with it (components/login/url-login.ts).
 */
export function loginAddress(location: Pick<Location, 'pathname' | 'search'> = window.location): string {
  return `/login?callback=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
}

export interface AdminGateProps {
  /**
   * The sign-in the address carries (back from the login page), while it runs: nobody is sent to the
   * login page before it has settled.
   */
  urlLogin?: Promise<unknown>;
  /** Sends the browser to another page (the login); location.assign by default. */
  navigate?: (url: string) => void;
  children: ReactNode;
}

/**
 * Who may see the console: nobody signed in goes to the login page; a signed-in account that is not
 * an administrator sees "not allowed". The role is asked of the server (a stored one may be stale);
 * the server refuses every admin call of a non-admin anyway, so this is about a clear page.
 */
export function AdminGate({ urlLogin, navigate = (url) => window.location.assign(url), children }: AdminGateProps) {
  const { t } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const settled = useSettled(urlLogin);
  const me = useAdminMe();
  const mustSignIn = settled && token === null;

  useEffect(() => {
    if (mustSignIn) navigate(loginAddress());
  }, [mustSignIn, navigate]);

  if (!settled || (token !== null && me.isPending)) return <Waiting label={t('adminShell.loading')} />;
  if (mustSignIn) return <SignInPage />;
  if (me.isError) {
    return (
      <GateFrame title={t('adminShell.notAllowedTitle')}>
        <Alert color="red" role="alert">
          {t('adminShell.checkFailed', { message: me.error.message })}
        </Alert>
        <Group>
          <Button onClick={() => void me.refetch()}>{t('adminShell.retry')}</Button>
        </Group>
      </GateFrame>
    );
  }
  if (me.data && me.data.role !== 'admin') return <NotAllowedPage user={me.data} />;
  return <>{children}</>;
}

/** False until `promise` has settled (true at once when there is none). */
function useSettled(promise: Promise<unknown> | undefined): boolean {
  const [settled, setSettled] = useState(promise === undefined);
  useEffect(() => {
    if (!promise) return;
    let live = true;
    void promise.finally(() => live && setSettled(true));
    return () => {
      live = false;
    };
  }, [promise]);
  return settled;
}

function Waiting({ label }: { label: string }) {
  return (
    <Center mih="100vh" role="status" aria-label={label}>
      <Loader />
    </Center>
  );
}

function GateFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Center mih="100vh" p="md" bg="var(--tandem-backdrop)">
      <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={460}>
        <Stack gap="md">
          <Title order={1} size="h3">
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}

function SignInPage() {
  const { t } = useTranslation();
  return (
    <GateFrame title={t('adminShell.signInTitle')}>
      <Text size="sm">{t('adminShell.signInText')}</Text>
      <Group>
        <Button component="a" href={loginAddress()}>
          {t('adminShell.signIn')}
        </Button>
      </Group>
    </GateFrame>
  );
}

/** A signed-in account without the admin role. Signing out leads to the login page (the gate sends it there). */
function NotAllowedPage({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const { leaving, leave } = useAdminSignOut();
  return (
    <GateFrame title={t('adminShell.notAllowedTitle')}>
      <Alert color="orange" role="alert" data-testid="admin-not-allowed">
        {t('adminShell.notAllowedText', { email: user.email })}
      </Alert>
      <Group justify="space-between">
        <Anchor href="/">{t('adminShell.openApp')}</Anchor>
        <Button variant="default" loading={leaving} onClick={leave}>
          {t('adminShell.otherAccount')}
        </Button>
      </Group>
    </GateFrame>
  );
}
