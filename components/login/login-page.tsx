import { Alert, Button, Center, Group, Paper, PasswordInput, SegmentedControl, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { addUser, login } from '../../shared/api/account.ts';
import { LanguageSchema } from '../../shared/contracts/common.ts';
import { setLanguage } from '../../shared/i18n/i18n.ts';
import { loginFailureMessage } from './login-actions.ts';
import { validateLoginForm, type LoginFormErrors, type LoginFormValues, type LoginMode } from './login-form.ts';
import { postToParent, readFrameContext, redirectTarget, type FrameContext } from './login-target.ts';

export interface LoginPageProps {
  /** Sends the browser on after a sign-in outside a frame; defaults to location.assign. */
  navigate?: (url: string) => void;
}

type Outcome = 'posted' | 'redirecting';

const EMPTY: LoginFormValues = { email: '', password: '', userName: '' };

/**
 * The central login page (/login, served by the server). Signs in or creates an account, then hands
 * the single-use temp key on: to the embedding window (the login dialog's frame, spec §4) when
 * framed by a trusted origin, else to the callback of spec §2 or the web app's root by redirect.
 */
export function LoginPage({ navigate = (url) => window.location.assign(url) }: LoginPageProps) {
  const { t, i18n } = useTranslation();
  const [frame] = useState<FrameContext>(() => readFrameContext(window));
  const untrustedParent = frame.framed && !frame.targetOrigin;
  const [mode, setMode] = useState<LoginMode>('signIn');
  const [values, setValues] = useState<LoginFormValues>(EMPTY);
  const [errors, setErrors] = useState<LoginFormErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    document.title = t('loginPage.documentTitle');
    document.documentElement.lang = i18n.language;
  }, [t, i18n.language]);

  // Tells the login dialog that its frame is ready and that nobody is signed in here.
  useEffect(() => {
    if (frame.framed && frame.targetOrigin) postToParent(window, frame.targetOrigin, { type: 'not-logged-in' });
  }, [frame]);

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

  const handOn = (tempKey: string) => {
    if (frame.framed) {
      // Checked before the call too; kept here so no path can post to an unknown origin.
      if (!frame.targetOrigin) throw new Error('untrusted parent');
      postToParent(window, frame.targetOrigin, { type: 'login-success', code: 200, tempKey });
      setOutcome('posted');
    } else {
      setOutcome('redirecting');
      navigate(redirectTarget(window.location.href, tempKey));
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const found = validateLoginForm(values, mode);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    // A temp key is not even asked for when it could not be handed on safely (the banner says why).
    if (untrustedParent) return;
    setServerError(null);
    setSubmitting(true);
    const credentials = { email: values.email.trim(), password: values.password };
    try {
      if (mode === 'signUp') {
        await addUser({ ...credentials, userName: values.userName.trim() || undefined });
        // The account exists now: a retry after a failed login must sign in, not sign up again.
        setMode('signIn');
      }
      const { tempKey } = await login(credentials);
      handOn(tempKey);
    } catch (error) {
      setServerError(loginFailureMessage(error));
    } finally {
      setSubmitting(false);
    }
  };

  const language = i18n.language === 'zh' ? 'zh' : 'en';

  return (
    <Center mih="100vh" p="md" bg="secondary.0">
      <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={400}>
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
            <SegmentedControl
              size="xs"
              aria-label={t('loginPage.language')}
              value={language}
              onChange={(next) => {
                const parsed = LanguageSchema.safeParse(next);
                if (parsed.success) void setLanguage(parsed.data);
              }}
              data={[
                { value: 'en', label: 'English' },
                { value: 'zh', label: '中文' },
              ]}
            />
          </Group>

          {untrustedParent && (
            <Alert color="red" role="alert" data-testid="unknown-parent">
              {t('loginPage.unknownParent')}
            </Alert>
          )}

          {outcome ? (
            <Stack gap={4} role="status" data-testid="login-outcome">
              <Title order={2} size="h4">
                {t('loginPage.signedIn')}
              </Title>
              <Text size="sm" c="dimmed">
                {outcome === 'posted' ? t('loginPage.closeHint') : t('loginPage.redirecting')}
              </Text>
            </Stack>
          ) : (
            <>
              <Tabs value={mode} onChange={switchMode}>
                <Tabs.List grow>
                  <Tabs.Tab value="signIn">{t('loginPage.signIn')}</Tabs.Tab>
                  <Tabs.Tab value="signUp">{t('loginPage.signUp')}</Tabs.Tab>
                </Tabs.List>
              </Tabs>

              <form noValidate onSubmit={(event) => void submit(event)}>
                <Stack gap="sm">
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
            </>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
