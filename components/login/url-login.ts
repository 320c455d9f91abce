import { notifyError, notifySuccess } from '../ui/notify.ts';
import i18next from 'i18next';
import type { JotaiStore } from '../app-shell/start.ts';
import { completeLogin, loginFailureMessage, loginWithTempKey } from './login-actions.ts';

/** The parameters a login redirect may carry (spec §4); tempkey is an older spelling still sent by some links. */
const LOGIN_PARAMS = ['token', 'tempKey', 'tempkey'] as const;

export type UrlLoginOutcome = 'none' | 'logged-in' | 'failed';

/**
 * Spec §4 URL parameters: `token` sets the token directly; `tempKey` (or `tempkey`) is exchanged
 * for one. Either way the user is then loaded and the path kept. The parameters leave the address
 * bar first, so a reload or a shared link never replays a credential.
 */
export async function loginFromUrl(
  store: JotaiStore,
  href: string = window.location.href,
  replaceUrl: (url: string) => void = (url) => window.history.replaceState(window.history.state, '', url),
): Promise<UrlLoginOutcome> {
  const url = new URL(href);
  const token = url.searchParams.get('token')?.trim();
  const tempKey = (url.searchParams.get('tempKey') ?? url.searchParams.get('tempkey'))?.trim();
  if (!token && !tempKey) return 'none';
  for (const name of LOGIN_PARAMS) url.searchParams.delete(name);
  replaceUrl(`${url.pathname}${url.search}${url.hash}`);

  try {
    if (token) {
      await completeLogin(store, token);
    } else if (tempKey) {
      await loginWithTempKey(store, tempKey);
      notifySuccess(i18next.t('login.succeeded'));
    }
    return 'logged-in';
  } catch (error) {
    notifyError(loginFailureMessage(error));
    return 'failed';
  }
}
