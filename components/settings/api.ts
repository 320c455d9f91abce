import { queryOptions } from '@tanstack/react-query';
import { HEAD_IMG, type UpdateUserPasswordRequest } from '../../shared/contracts/account.ts';
import { UserInfoSchema, type UserInfo } from '../../shared/contracts/user.ts';
import { apiGet, apiPost } from '../../shared/api/request.ts';
import { EmailStateSchema, type EmailState } from '../../shared/contracts/email-verification.ts';
import { getUserProviderList } from '../../shared/api/sign-in-providers.ts';

/**
 * Changes the signed-in user's password. The server ends every other login of the account and keeps
 * this one; a wrong current password fails with 10401, a weak or unchanged new one with 10400.
 */
export async function updateUserPassword(body: UpdateUserPasswordRequest): Promise<void> {
  await apiPost('/api/Account/UpdateUserPassword', body);
}

/** Uploads the user's picture (the server crops it to a centred square); answers the user info with its address. */
export function uploadHeadImg(file: Blob, fileName: string): Promise<UserInfo> {
  const form = new FormData();
  form.append(HEAD_IMG.field, file, fileName);
  return apiPost('/api/Account/AddUserForHeadImg', form, { data: UserInfoSchema });
}

/** Removes the user's picture; answers the user info without one. */
export function deleteHeadImg(): Promise<UserInfo> {
  return apiPost('/api/Account/DeleteUserHeadImg', {}, { data: UserInfoSchema });
}

/** Sets the user's phone number, or removes it (null); answers the user info with it as stored. */
export function updateUserPhone(phone: string | null): Promise<UserInfo> {
  return apiPost('/api/Account/UpdateUserPhone', { phone }, { data: UserInfoSchema });
}

/** Whether the signed-in user's e-mail is verified, whether the server can mail a link, and when it last did. */
export function getEmailState(signal?: AbortSignal): Promise<EmailState> {
  return apiGet('/api/Account/GetEmailState', undefined, { data: EmailStateSchema, signal });
}

/**
 * Mails a new verification link (older ones stop working); answers the new state. Fails with 10461
 * when the server cannot send mail, 10429 beyond the hourly limit, 10409 when already verified.
 */
export function sendVerifyEmail(): Promise<EmailState> {
  return apiPost('/api/Account/SendVerifyEmail', {}, { data: EmailStateSchema });
}

/** Keyed by the login's token: another account's state never shows from the cache. */
export function emailStateQuery(token: string | null) {
  return queryOptions({
    queryKey: ['email-state', token] as const,
    queryFn: ({ signal }) => getEmailState(signal),
    enabled: token !== null,
  });
}

/** The signed-in user's linked sign-in providers and whether the account has a password; keyed by the login's token. */
export function userProvidersQuery(token: string | null) {
  return queryOptions({
    queryKey: ['user-providers', token] as const,
    queryFn: ({ signal }) => getUserProviderList(signal),
    enabled: token !== null,
  });
}
