import { z } from 'zod';

export type LoginMode = 'signIn' | 'signUp';

export interface LoginFormValues {
  email: string;
  password: string;
  /** Sign-up only; optional. */
  userName: string;
}

/** i18n keys of the messages under the fields that fail. */
export type LoginFormErrors = Partial<Record<keyof LoginFormValues, string>>;

/** The server's rule (shared/contracts/account.ts): sign-up passwords have at least 8 characters. */
export const MIN_PASSWORD_LENGTH = 8;

const EmailSchema = z.email();

/** The checks the server would make, done first so a person sees what to fix before any call. */
export function validateLoginForm(values: LoginFormValues, mode: LoginMode): LoginFormErrors {
  const errors: LoginFormErrors = {};
  const email = values.email.trim();
  if (!email) errors.email = 'loginPage.required';
  else if (!EmailSchema.safeParse(email).success) errors.email = 'loginPage.emailInvalid';
  if (!values.password) errors.password = 'loginPage.required';
  else if (mode === 'signUp' && values.password.length < MIN_PASSWORD_LENGTH) errors.password = 'loginPage.passwordTooShort';
  return errors;
}
