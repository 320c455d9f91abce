import { Alert, Button, Divider, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { autoLinkWeb, getProviderByAction, getProviderListAll } from '../../shared/api/sign-in-providers.ts';
import type { Provider } from '../../shared/contracts/sign-in-providers.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import strings from '../../locales/features/sign-in-providers.en.json';
import { loginFailureMessage } from './login-actions.ts';
import { ProviderIcon } from '../ui/provider-icons.tsx';
import { POPUP_PARAM, returnPathOf, START_PARAM } from './provider-return.ts';

addEnglishStrings(strings);

/** What a login page opened as a pop-up posts to the framed login page that opened it. */
export type ProviderPopupMessage = { type: 'provider-login'; tempKey: string };

/**
 * Starts a sign-in with a provider from this page: the server binds it to this browser (a cookie)
 * and answers the provider's address, which the page then goes to.
 */
export async function startProviderSignIn(providerKey: string, navigate: (url: string) => void): Promise<void> {
  navigate(await getProviderByAction({ providerKey, action: 'login', returnTo: returnPathOf(window.location.href) }));
}

/**
 * The login page framed (the login dialog, the drawer, the extension) cannot show a provider: they
 * refuse to be framed. It opens this page in a pop-up instead, which signs in and posts the temp key
 * back to it (same origin only). False when the pop-up was blocked.
 */
export function openProviderPopup(providerKey: string): boolean {
  const url = new URL('/login', window.location.origin);
  url.searchParams.set(START_PARAM, providerKey);
  url.searchParams.set(POPUP_PARAM, '1');
  return !!window.open(url.href, 'tandem-provider', 'popup,width=520,height=720');
}

/** In a framed page: the temp key a pop-up of this origin posts back. */
export function useProviderPopupResult(enabled: boolean, onTempKey: (tempKey: string) => void) {
  const handler = useRef(onTempKey);
  handler.current = onTempKey;
  useEffect(() => {
    if (!enabled) return;
    const listen = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      const data = event.data as Partial<ProviderPopupMessage> | null;
      if (data?.type === 'provider-login' && typeof data.tempKey === 'string' && data.tempKey) handler.current(data.tempKey);
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, [enabled]);
}

/** A pop-up that finished: hands the key to the page that opened it. False when there is none to hand it to. */
export function postToOpener(tempKey: string): boolean {
  const opener = window.opener as Window | null;
  if (!opener || !new URL(window.location.href).searchParams.has(POPUP_PARAM)) return false;
  opener.postMessage({ type: 'provider-login', tempKey } satisfies ProviderPopupMessage, window.location.origin);
  return true;
}

/** The login page's "Continue with …" buttons, one per enabled provider; nothing when there is none. */
export function ProviderButtons({ framed, navigate, onError }: { framed: boolean; navigate: (url: string) => void; onError: (message: string | null) => void }) {
  const { t } = useTranslation();
  const providers = useQuery({ queryKey: ['sign-in-providers'], queryFn: ({ signal }) => getProviderListAll(signal), staleTime: 5 * 60_000 });
  const [starting, setStarting] = useState<string | null>(null);
  const list = providers.data ?? [];
  if (list.length === 0) return null;
  const start = async (provider: Provider) => {
    onError(null);
    if (framed) {
      if (!openProviderPopup(provider.providerKey)) onError(t('signInProviders.popupBlocked'));
      return;
    }
    setStarting(provider.providerKey);
    try {
      await startProviderSignIn(provider.providerKey, navigate);
    } catch (error) {
      setStarting(null);
      onError(loginFailureMessage(error));
    }
  };
  return (
    <Stack gap="xs" data-testid="provider-buttons">
      <Divider label={t('signInProviders.or')} labelPosition="center" />
      {list.map((provider) => (
        <Button
          key={provider.providerKey}
          variant="default"
          fullWidth
          leftSection={<ProviderIcon kind={provider.kind} />}
          loading={starting === provider.providerKey}
          disabled={starting !== null && starting !== provider.providerKey}
          onClick={() => void start(provider)}
        >
          {t('signInProviders.continueWith', { name: provider.displayName })}
        </Button>
      ))}
    </Stack>
  );
}

/**
 * The provider's verified e-mail names an existing account: link only when the person types that
 * account's password (the server checks it as a login does). Then signed in to that account.
 */
export function ProviderLinkPanel({
  linkId,
  email,
  provider,
  onSignedIn,
  onCancel,
}: {
  linkId: string;
  email: string;
  provider: string;
  onSignedIn: (tempKey: string) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    setSubmitting(true);
    setError(null);
    try {
      await onSignedIn(await autoLinkWeb({ linkId, password }));
    } catch (failure) {
      setError(loginFailureMessage(failure));
    } finally {
      setSubmitting(false);
    }
  };
  return (
    <form noValidate onSubmit={(event) => void submit(event)} data-testid="provider-link">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('signInProviders.link.title', { provider })}
        </Title>
        <Text size="sm">{t('signInProviders.link.body', { email, provider })}</Text>
        <PasswordInput
          label={t('signInProviders.link.password', { email })}
          autoComplete="current-password"
          maxLength={200}
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          visibilityToggleButtonProps={{ 'aria-label': t('common.showPassword') }}
          autoFocus
        />
        {error && (
          <Alert color="red" role="alert" data-testid="provider-link-error">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel}>
            {t('signInProviders.link.cancel')}
          </Button>
          <Button type="submit" loading={submitting}>
            {t('signInProviders.link.confirm')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
