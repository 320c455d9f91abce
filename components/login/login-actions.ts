import i18next from 'i18next';
import { ApiError } from '../../shared/api/request.ts';
import { getTokenForTempKey, getUserByLogin } from '../../shared/api/user.ts';
import { authActionAtom } from '../../shared/atoms/auth.ts';
import type { JotaiStore } from '../app-shell/start.ts';

/** Stores the token (through the Auth store's one writer), then loads the user it belongs to. */
export async function completeLogin(store: JotaiStore, token: string): Promise<void> {
  await store.set(authActionAtom, { type: 'login', token });
  const userInfo = await getUserByLogin();
  await store.set(authActionAtom, { type: 'userInfo', userInfo });
}

/** A temp key from the login page is exchanged for a token, then the user is loaded. */
export async function loginWithTempKey(store: JotaiStore, tempKey: string): Promise<void> {
  await completeLogin(store, await getTokenForTempKey(tempKey));
}

/** The failure's own message, or 'login failed, please retry later'. */
export function loginFailureMessage(error: unknown): string {
  return error instanceof ApiError && error.message ? error.message : i18next.t('login.failed');
}
