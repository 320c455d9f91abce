import { Alert, Button, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/password-reset.en.json';
import { ApiError } from '../../shared/api/request.ts';
import { resetPassword } from './api.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { MIN_PASSWORD_LENGTH } from './login-form.ts';

addEnglishStrings(en);

/** The reset token of a link an administrator sent (/login?reset=<token>); null when there is none. */
export function resetTokenOf(href: string): string | null {
  const token = new URL(href).searchParams.get('reset');
  return token && token.trim() ? token.trim() : null;
}

/**
 * "Set a new password", shown by the login page for a reset link. On success the user is told to
 * sign in with the new password; `onDone` leaves this form for the sign-in form.
 */
export function ResetPasswordForm({ token, onDone }: { token: string; onDone: () => void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const found = {
      password: password.length < MIN_PASSWORD_LENGTH ? t('passwordReset.tooShort') : undefined,
      confirm: confirm !== password ? t('passwordReset.mismatch') : undefined,
    };
    setErrors(found);
    if (found.password || found.confirm) return;
    setServerError(null);
    setSubmitting(true);
    try {
      await resetPassword({ token, password });
      setDone(true);
    } catch (error) {
      // The server's message says what to do (an expired link: ask for a new one).
      setServerError(error instanceof ApiError && error.message ? error.message : t('passwordReset.failed'));
    } finally {
      setSubmitting(false);
    }
  };

  if (done) {
    return (
      <Stack gap="sm" role="status" data-testid="reset-done">
        <Text>{t('passwordReset.done')}</Text>
        <Button onClick={onDone}>{t('passwordReset.toSignIn')}</Button>
      </Stack>
    );
  }
  return (
    <form noValidate onSubmit={(event) => void submit(event)} data-testid="reset-form">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('passwordReset.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('passwordReset.hint')}
        </Text>
        <PasswordInput
          visibilityToggleButtonProps={{ 'aria-label': t('common.showPassword') }}
          label={t('passwordReset.newPassword')}
          autoComplete="new-password"
          maxLength={200}
          value={password}
          onChange={(event) => {
            setPassword(event.currentTarget.value);
            setErrors((e) => ({ ...e, password: undefined }));
          }}
          error={errors.password}
          autoFocus
        />
        <PasswordInput
          visibilityToggleButtonProps={{ 'aria-label': t('common.showPassword') }}
          label={t('passwordReset.confirmPassword')}
          autoComplete="new-password"
          maxLength={200}
          value={confirm}
          onChange={(event) => {
            setConfirm(event.currentTarget.value);
            setErrors((e) => ({ ...e, confirm: undefined }));
          }}
          error={errors.confirm}
        />
        {serverError && (
          <Alert color="red" role="alert" data-testid="reset-error">
            {serverError}
          </Alert>
        )}
        <Button type="submit" fullWidth loading={submitting}>
          {t('passwordReset.submit')}
        </Button>
      </Stack>
    </form>
  );
}

/** Takes the used token out of the address, so a reload shows the sign-in form. */
export function forgetResetToken(): void {
  const url = new URL(window.location.href);
  url.searchParams.delete('reset');
  window.history.replaceState(window.history.state, '', url.toString());
}
