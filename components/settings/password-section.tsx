import { Alert, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../shared/api/request.ts';
import { tokenAtom, userInfoAtom } from '../../shared/atoms/auth.ts';
import { UpdateUserPasswordRequestSchema } from '../../shared/contracts/account.ts';
import { Codes } from '../../shared/contracts/envelope.ts';
import { errorMessage } from '../ui/error-message.ts';
import { fieldErrors } from '../ui/form-errors.ts';
import { notifySuccess } from '../ui/notify.ts';
import { SettingsSection } from '../ui/settings-section.tsx';
import { updateUserPassword, userProvidersQuery } from './api.ts';
import providerStrings from '../../locales/features/sign-in-providers.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';

addEnglishStrings(providerStrings);

type Field = 'current' | 'next' | 'confirm';
type Errors = Partial<Record<Field | 'form', string>>;

const EMPTY: Record<Field, string> = { current: '', next: '', confirm: '' };
/** The new password's bounds, from the contract the server applies (sign-up's rule). */
const MIN = UpdateUserPasswordRequestSchema.shape.newPassword.minLength ?? 8;
const MAX = UpdateUserPasswordRequestSchema.shape.newPassword.maxLength ?? 200;

/** What is wrong with the form before it is sent: the contract's problems, then the two checks it cannot make. */
export function passwordFormErrors(values: Record<Field, string>, t: (key: string, params?: Record<string, unknown>) => string, firstPassword = false): Errors {
  const errors: Errors = {};
  // Only an account without a password yet (made through a sign-in provider) sets one without the current one.
  if (!firstPassword && !values.current) errors.current = t('settings.password.currentRequired');
  const parsed = UpdateUserPasswordRequestSchema.safeParse({ oldPassword: values.current, newPassword: values.next });
  if (!parsed.success) {
    const problems = fieldErrors(parsed.error);
    if (problems.oldPassword && !errors.current) errors.current = problems.oldPassword === 'currentPasswordRequired' ? t('settings.password.currentRequired') : t('settings.password.tooLong', { max: MAX });
    if (problems.newPassword) errors.next = problems.newPassword === 'passwordTooShort' ? t('settings.password.tooShort', { min: MIN }) : t('settings.password.tooLong', { max: MAX });
  }
  if (!errors.next && values.current && values.next === values.current) errors.next = t('settings.password.unchanged');
  if (values.confirm !== values.next) errors.confirm = t('settings.password.mismatch');
  return errors;
}

/**
 * Settings → Account → Password: the current password, the new one twice. The server checks the
 * current one (as a login does) and ends the account's other logins; this one stays signed in. The
 * fields carry the autocomplete names password managers look for, with the account's e-mail as the
 * username they save it under.
 */
export function PasswordSection() {
  const { t } = useTranslation();
  const email = useAtomValue(userInfoAtom)?.email ?? '';
  const token = useAtomValue(tokenAtom);
  const queryClient = useQueryClient();
  const providers = userProvidersQuery(token);
  // An account made through a sign-in provider has no password yet: it sets its first one.
  const firstPassword = useQuery(providers).data?.hasPassword === false;
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Errors>({});

  const change = useMutation({
    mutationFn: () => updateUserPassword({ oldPassword: firstPassword ? '' : values.current, newPassword: values.next }),
    onSuccess: () => {
      setValues(EMPTY);
      setErrors({});
      notifySuccess(firstPassword ? t('signInProviders.password.set') : t('settings.password.changed'));
      void queryClient.invalidateQueries({ queryKey: providers.queryKey });
    },
    // Shown where it belongs: a wrong current password under it, a refused new one under that.
    onError: (error) => {
      const message = errorMessage(error) || t('settings.password.failed');
      if (error instanceof ApiError && error.code === Codes.LoginFailed) setErrors({ current: message });
      else if (error instanceof ApiError && error.code === Codes.BadRequest) setErrors({ next: message });
      else setErrors({ form: message });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending) return;
    const found = passwordFormErrors(values, t, firstPassword);
    setErrors(found);
    if (Object.keys(found).length === 0) change.mutate();
  };

  const input = (field: Field, label: string, autoComplete: string) => (
    <PasswordInput
      label={label}
      autoComplete={autoComplete}
      name={field === 'current' ? 'current-password' : field === 'next' ? 'new-password' : 'confirm-password'}
      maxLength={MAX}
      value={values[field]}
      error={errors[field]}
      // Mantine marks the wrapper only: screen readers hear it from the field itself.
      aria-invalid={errors[field] ? true : undefined}
      visibilityToggleButtonProps={{ 'aria-label': t('common.showPassword') }}
      data-testid={`password-${field}`}
      onChange={(event) => {
        const value = event.currentTarget.value;
        setValues((v) => ({ ...v, [field]: value }));
        setErrors((e) => ({ ...e, [field]: undefined, form: undefined }));
      }}
    />
  );

  return (
    <SettingsSection
      title={firstPassword ? t('signInProviders.password.setTitle') : t('settings.password.title')}
      testId="settings-password"
      description={
        <Text size="sm" c="dimmed" mb="sm">
          {firstPassword ? t('signInProviders.password.setHint') : t('settings.password.hint')}
        </Text>
      }
    >
      <form noValidate onSubmit={submit} data-testid="password-form">
        <Stack gap="xs">
          {/* The account a password manager files the new password under. */}
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
          {!firstPassword && input('current', t('settings.password.current'), 'current-password')}
          {input('next', t('settings.password.new'), 'new-password')}
          {input('confirm', t('settings.password.confirm'), 'new-password')}
          {errors.form && (
            <Alert color="red" role="alert" p="xs" data-testid="password-error">
              {errors.form}
            </Alert>
          )}
          <Button type="submit" loading={change.isPending} style={{ alignSelf: 'flex-start' }}>
            {firstPassword ? t('signInProviders.password.setSubmit') : t('settings.password.submit')}
          </Button>
        </Stack>
      </form>
    </SettingsSection>
  );
}
