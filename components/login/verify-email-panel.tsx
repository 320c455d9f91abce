import { Alert, Button, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/email-verification.en.json';
import { VERIFY_EMAIL_PARAM, type VerifyEmailResult } from '../../shared/contracts/email-verification.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { errorMessage } from '../ui/error-message.ts';
import { verifyEmail } from './api.ts';

addEnglishStrings(en);

/** The token of an e-mail verification link (/login?verifyEmail=<token>); null when there is none. */
export function verifyTokenOf(href: string): string | null {
  const token = new URL(href).searchParams.get(VERIFY_EMAIL_PARAM);
  return token && token.trim() ? token.trim() : null;
}

/** Takes the used token out of the address, so a reload shows the sign-in form. */
export function forgetVerifyToken(): void {
  const url = new URL(window.location.href);
  url.searchParams.delete(VERIFY_EMAIL_PARAM);
  window.history.replaceState(window.history.state, '', url.toString());
}

/**
 * One call per token for the page's life: an effect run twice (StrictMode in development) must not
 * spend the link on the first run and be told "already used" on the second.
 */
const calls = new Map<string, Promise<VerifyEmailResult>>();
function verifyOnce(token: string): Promise<VerifyEmailResult> {
  let call = calls.get(token);
  if (!call) calls.set(token, (call = verifyEmail({ token })));
  return call;
}

type Outcome = { ok: true; email: string } | { ok: false; message: string };

/**
 * Shown by the login page for a verification link: verifies at once (the link is the consent) and
 * says how it went, in the reader's language; `onDone` leaves for the sign-in form.
 */
export function VerifyEmailPanel({ token, onDone }: { token: string; onDone: () => void }) {
  const { t } = useTranslation();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  useEffect(() => {
    let live = true;
    verifyOnce(token).then(
      (result) => live && setOutcome({ ok: true, email: result.email }),
      (error: unknown) => live && setOutcome({ ok: false, message: errorMessage(error) || t('emailVerification.page.failed') }),
    );
    return () => {
      live = false;
    };
  }, [token, t]);

  if (!outcome) {
    return (
      <Stack gap="sm" align="center" role="status" data-testid="verify-email-checking">
        <Loader size="sm" />
        <Text size="sm">{t('emailVerification.page.checking')}</Text>
      </Stack>
    );
  }
  return (
    <Stack gap="sm" data-testid="verify-email-outcome">
      {outcome.ok ? (
        <Alert color="teal" role="status" data-testid="verify-email-done">
          {t('emailVerification.page.done', { email: outcome.email })}
        </Alert>
      ) : (
        <Alert color="red" role="alert" title={t('emailVerification.page.failedTitle')} data-testid="verify-email-failed">
          {outcome.message}
        </Alert>
      )}
      <Button onClick={onDone}>{t('emailVerification.page.continue')}</Button>
    </Stack>
  );
}
