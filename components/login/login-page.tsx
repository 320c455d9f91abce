import { Alert, Button, Center, Group, Loader, Paper, PasswordInput, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { addUser, login } from '../../shared/api/account.ts';
import { forgetInviteCode, keepInviteCodeFromUrl, pendingInviteCode } from '../../shared/atoms/invite-code.ts';
import { LOGIN_FRAME_MAX_HEIGHT } from '../../shared/contracts/login-frame.ts';
import { rememberLoginState } from './atoms.ts';
import { useSystemSetting } from '../app-shell/system-settings.ts';
import { LanguageSwitch } from '../ui/language-switch.tsx';
import { loginFailureMessage } from './login-actions.ts';
import { validateLoginForm, type LoginFormErrors, type LoginFormValues, type LoginMode } from './login-form.ts';
import { planRedirect, postToParent, readFrameContext, withTempKey, type FrameContext, type RedirectPlan } from './login-target.ts';
import { forgetResetToken, ResetPasswordForm, resetTokenOf } from './reset-password-form.tsx';
import { forgetVerifyToken, VerifyEmailPanel, verifyTokenOf } from './verify-email-panel.tsx';
import { readProviderReturn, START_PARAM, withoutProviderParams, type ProviderReturn } from './provider-return.ts';
import { postToOpener, ProviderButtons, ProviderLinkPanel, startProviderSignIn, useProviderPopupResult } from './provider-sign-in.tsx';

export interface LoginPageProps {
  /** Sends the browser on after a sign-in outside a frame; defaults to location.assign. */
  navigate?: (url: string) => void;
}

type Outcome = 'posted' | 'redirecting';

const EMPTY: LoginFormValues = { email: '', password: '', userName: '' };

/**
 * The central login page (/login, served by the server). Signs in or creates an account, then hands
 * the single-use temp key on: to the embedding window (the login dialog's frame) when framed by a
 * trusted origin, else by redirect to the callback or the web app's root. Trusted means this origin
 * or an extension id the server lists (setting extension_ids); anyone else is told they may not
 * sign in with Tandem and gets no key (docs/security.md#login-links).
 */
export function LoginPage({ navigate = (url) => window.location.assign(url) }: LoginPageProps) {
  const ids = useSystemSetting('extension_ids');
  useDocumentTitle();
  // An invite link may lead here directly (/login?inviteCode=): the code is kept as the app keeps it.
  useEffect(() => void keepInviteCodeFromUrl(), []);
  // Until the server says which extensions it trusts, nothing is handed on; if it cannot say, none are.
  if (ids.value === undefined && ids.isPending) {
    return (
      <LoginShell>
        <Center py="xl">
          <Loader size="sm" />
        </Center>
      </LoginShell>
    );
  }
  const allowedIds = (ids.value ?? '').split(',').filter(Boolean);
  return <LoginScreen allowedIds={allowedIds} navigate={navigate} />;
}

function useDocumentTitle() {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    document.title = t('loginPage.documentTitle');
    document.documentElement.lang = i18n.language;
  }, [t, i18n.language]);
}

/** Where a temp key goes once signed in; null when it may go nowhere. */
function useHandOn(frame: FrameContext, plan: RedirectPlan | undefined, navigate: (url: string) => void) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const handOn = async (tempKey: string) => {
    if (frame.framed) {
      // Checked before the call too; kept here so no path can post to an unknown origin.
      if (!frame.targetOrigin) throw new Error('untrusted parent');
      postToParent(window, frame.targetOrigin, { type: 'login-success', code: 200, tempKey });
      setOutcome('posted');
      return;
    }
    if (!plan) throw new Error('callback not allowed');
    // The caller's own state comes back as it was; a login sent to this origin without one gets a
    // state kept here, so the web app knows this browser asked for it.
    const given = new URL(window.location.href).searchParams.get('state');
    const state = given ?? (plan.sameOrigin ? await rememberLoginState() : null);
    setOutcome('redirecting');
    navigate(withTempKey(plan.target, tempKey, state));
  };
  return { outcome, handOn };
}

function LoginScreen({ allowedIds, navigate }: { allowedIds: string[]; navigate: (url: string) => void }) {
  const { t } = useTranslation();
  const [frame] = useState<FrameContext>(() => readFrameContext(allowedIds, window));
  const [plan] = useState<RedirectPlan | undefined>(() => (frame.framed ? undefined : planRedirect(window.location.href, allowedIds)));
  const notAllowed = frame.framed ? !frame.targetOrigin : plan === null;
  const { outcome, handOn } = useHandOn(frame, plan, navigate);
  // A password-reset link an administrator sent (/login?reset=<token>): set the password first.
  const [resetToken, setResetToken] = useState(() => resetTokenOf(window.location.href));
  // An e-mail verification link (/login?verifyEmail=<token>): verified on opening, then the sign-in form.
  const [verifyToken, setVerifyToken] = useState(() => verifyTokenOf(window.location.href));

  // Tells the login dialog that its frame is ready and that nobody is signed in here.
  useEffect(() => {
    if (frame.framed && frame.targetOrigin) postToParent(window, frame.targetOrigin, { type: 'not-logged-in' });
  }, [frame]);
  useReportHeight(frame);
  const provider = useProviderReturn(frame, notAllowed, handOn, navigate);

  let body: ReactNode;
  if (notAllowed) {
    body = (
      <Alert color="red" role="alert" data-testid="not-allowed" title={t('loginPage.notAllowedTitle')}>
        {t('loginPage.notAllowed')}
      </Alert>
    );
  } else if (outcome) {
    body = (
      <Stack gap={4} role="status" data-testid="login-outcome">
        <Title order={2} size="h4">
          {t('loginPage.signedIn')}
        </Title>
        <Text size="sm" c="dimmed">
          {outcome === 'posted' ? t('loginPage.closeHint') : t('loginPage.redirecting')}
        </Text>
      </Stack>
    );
  } else if (provider.popupDone) {
    body = (
      <Text size="sm" role="status" data-testid="provider-popup-done">
        {t('signInProviders.popupDone')}
      </Text>
    );
  } else if (provider.pending?.kind === 'confirmLink') {
    const { linkId, email, provider: name } = provider.pending;
    body = <ProviderLinkPanel linkId={linkId} email={email} provider={name} onSignedIn={provider.signedIn} onCancel={provider.clear} />;
  } else if (verifyToken) {
    body = (
      <VerifyEmailPanel
        token={verifyToken}
        onDone={() => {
          forgetVerifyToken();
          setVerifyToken(null);
        }}
      />
    );
  } else if (resetToken) {
    body = (
      <ResetPasswordForm
        token={resetToken}
        onDone={() => {
          forgetResetToken();
          setResetToken(null);
        }}
      />
    );
  } else {
    body = (
      <LoginForm
        onSignedIn={handOn}
        notice={provider.error}
        providers={<ProviderButtons framed={frame.framed} navigate={navigate} onError={provider.setError} />}
      />
    );
  }
  return <LoginShell>{body}</LoginShell>;
}

/**
 * The sign-in with a provider around this page (docs/api.md#sign-in-with-another-account): what the
 * server's callback put on the address (read once, then taken off it), a pop-up's start, and the
 * temp key a pop-up posts back to the framed page. A pop-up that signed in hands the key to the page
 * that opened it and closes; without one it goes on as the page alone would.
 */
function useProviderReturn(frame: FrameContext, notAllowed: boolean, handOn: (tempKey: string) => Promise<void>, navigate: (url: string) => void) {
  const { t } = useTranslation();
  const [pending, setPending] = useState<ProviderReturn>(() => readProviderReturn(window.location.href));
  const [errorKey, setErrorKey] = useState<string | null>(() => (pending?.kind === 'error' ? `signInProviders.errors.${pending.error}` : null));
  const [message, setMessage] = useState<string | null>(null);
  const [popupDone, setPopupDone] = useState(false);
  const started = useRef(false);
  const signedIn = async (tempKey: string) => {
    if (postToOpener(tempKey)) {
      setPopupDone(true);
      window.close();
      return;
    }
    await handOn(tempKey);
  };
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const href = window.location.href;
    const start = new URL(href).searchParams.get(START_PARAM);
    if (pending || start) window.history.replaceState(window.history.state, '', withoutProviderParams(href));
    if (notAllowed) return;
    if (pending?.kind === 'signedIn') {
      signedIn(pending.tempKey).catch((error: unknown) => setMessage(loginFailureMessage(error)));
      setPending(null);
    } else if (start && !frame.framed) {
      startProviderSignIn(start, navigate).catch((error: unknown) => setMessage(loginFailureMessage(error)));
    }
    // Once, on opening: what the address said when the page loaded.
  }, []);
  useProviderPopupResult(frame.framed && !notAllowed, (tempKey) => void handOn(tempKey));
  return {
    pending,
    popupDone,
    error: message ?? (errorKey ? t(errorKey) : null),
    setError: (next: string | null) => {
      setErrorKey(null);
      setMessage(next);
    },
    signedIn,
    clear: () => setPending(null),
  };
}

/**
 * Framed by a trusted parent, the page tells it the height of its content on every change (a tab
 * switched, an error shown), so the frame is as tall as the page and nothing (Create account) is
 * hidden below it.
 */
function useReportHeight(frame: FrameContext) {
  useEffect(() => {
    if (!frame.framed || !frame.targetOrigin || typeof ResizeObserver === 'undefined') return;
    const target = frame.targetOrigin;
    const root = document.getElementById('root');
    if (!root) return;
    let sent = 0;
    const report = () => {
      const height = Math.min(Math.ceil(root.getBoundingClientRect().height), LOGIN_FRAME_MAX_HEIGHT);
      if (height < 1 || height === sent) return;
      sent = height;
      postToParent(window, target, { type: 'resize', height });
    };
    const observer = new ResizeObserver(report);
    observer.observe(root);
    report();
    return () => observer.disconnect();
  }, [frame]);
}

/** Alone the shell fills the window; in a frame it is as tall as its content (the frame follows it). */
function LoginShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Center mih={window.parent === window ? '100vh' : undefined} p={{ base: 'xs', xs: 'md' }} bg="var(--tandem-backdrop)">
      <Paper withBorder shadow="sm" radius="md" p={{ base: 'md', xs: 'xl' }} w="100%" maw={400}>
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <div>
              <Title order={1} size="h2" c="primary.4">
                Tandem
              </Title>
              <Text size="sm" c="dimmed">
                {t('loginPage.tagline')}
              </Text>
            </div>
            <LanguageSwitch label={t('loginPage.language')} />
          </Group>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}

/** Sign in, or create an account and sign in; hands the temp key to `onSignedIn`. */
function LoginForm({ onSignedIn, notice, providers }: { onSignedIn: (tempKey: string) => Promise<void>; notice: string | null; providers: ReactNode }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<LoginMode>('signIn');
  const [values, setValues] = useState<LoginFormValues>(EMPTY);
  const [errors, setErrors] = useState<LoginFormErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const change = (field: keyof LoginFormValues) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const switchMode = (next: string | null) => {
    if (next !== 'signIn' && next !== 'signUp') return;
    setMode(next);
    setErrors({});
    setServerError(null);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const found = validateLoginForm(values, mode);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setServerError(null);
    setSubmitting(true);
    const credentials = { email: values.email.trim(), password: values.password };
    try {
      if (mode === 'signUp') {
        // A code kept from an invite link (?inviteCode= on this origin) names the inviter.
        const inviteCode = await pendingInviteCode();
        await addUser({ ...credentials, userName: values.userName.trim() || undefined, ...(inviteCode ? { inviteCode } : {}) });
        if (inviteCode) await forgetInviteCode();
        // The account exists now: a retry after a failed login must sign in, not sign up again.
        setMode('signIn');
      }
      const { tempKey } = await login(credentials);
      await onSignedIn(tempKey);
    } catch (error) {
      setServerError(loginFailureMessage(error));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <>
      <Tabs value={mode} onChange={switchMode}>
        <Tabs.List grow>
          <Tabs.Tab value="signIn">{t('loginPage.signIn')}</Tabs.Tab>
          <Tabs.Tab value="signUp">{t('loginPage.signUp')}</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Stack gap="sm">
          <LoginFields mode={mode} values={values} errors={errors} change={change} />
          {serverError && (
            <Alert color="red" role="alert" data-testid="login-error">
              {serverError}
            </Alert>
          )}
          <Button type="submit" fullWidth loading={submitting}>
            {mode === 'signUp' ? t('loginPage.signUp') : t('loginPage.signIn')}
          </Button>
        </Stack>
      </form>
      {notice && (
        <Alert color="red" role="alert" data-testid="provider-error">
          {notice}
        </Alert>
      )}
      {providers}
    </>
  );
}

type FieldsProps = {
  mode: LoginMode;
  values: LoginFormValues;
  errors: LoginFormErrors;
  change: (field: keyof LoginFormValues) => (value: string) => void;
};

function LoginFields({ mode, values, errors, change }: FieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <TextInput
        label={t('loginPage.email')}
        placeholder={t('loginPage.emailPlaceholder')}
        type="email"
        autoComplete={mode === 'signUp' ? 'username' : 'email'}
        maxLength={254}
        value={values.email}
        onChange={(event) => change('email')(event.currentTarget.value)}
        error={errors.email ? t(errors.email) : undefined}
        autoFocus
      />
      <PasswordInput
        visibilityToggleButtonProps={{ 'aria-label': t('common.showPassword') }}
        label={t('loginPage.password')}
        description={mode === 'signUp' ? t('loginPage.passwordHint') : undefined}
        autoComplete={mode === 'signUp' ? 'new-password' : 'current-password'}
        maxLength={200}
        value={values.password}
        onChange={(event) => change('password')(event.currentTarget.value)}
        error={errors.password ? t(errors.password) : undefined}
      />
      {mode === 'signUp' && (
        <TextInput
          label={t('loginPage.userName')}
          autoComplete="nickname"
          maxLength={50}
          value={values.userName}
          onChange={(event) => change('userName')(event.currentTarget.value)}
        />
      )}
    </>
  );
}
