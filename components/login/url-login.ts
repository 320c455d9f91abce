import i18next from 'i18next';
import { getTokenForTempKey, getUserByLogin } from '../../shared/api/user.ts';
import { authActionAtom, tokenAtom, userInfoAtom } from '../../shared/atoms/auth.ts';
import { consumeLoginState, pendingLinkLoginAtom } from './atoms.ts';
import type { UserInfo } from '../../shared/contracts/user.ts';
import { notifyError, notifySuccess } from '../ui/notify.ts';
import type { JotaiStore } from '../app-shell/start.ts';
import { loginFailureMessage } from './login-actions.ts';

/** The parameters a login redirect may carry; tempkey is an older spelling still sent by some links. */
const LOGIN_PARAMS = ['token', 'tempKey', 'tempkey', 'state'] as const;

export type UrlLoginOutcome = 'none' | 'logged-in' | 'declined' | 'failed';

/** Shows who the link would sign in as and waits for "Continue as …" (true) or "Stay as it is". */
function askUser(store: JotaiStore, user: UserInfo): Promise<boolean> {
  return new Promise((resolve) => {
    store.set(pendingLinkLoginAtom, {
      user,
      answer(accept) {
        store.set(pendingLinkLoginAtom, null);
        resolve(accept);
      },
    });
  });
}

/**
 * A link may carry a credential: `token` directly, or a one-time `tempKey` exchanged for one. A link
 * must never silently change who this browser is, since any site can link here with a credential
 * of an account it controls (docs/security.md#login-links). So the credential is resolved to its
 * account without storing it, and stored only when:
 * - this browser started that login itself (the `state` it kept comes back with it), or
 * - it is the account already signed in here, or
 * - the user, shown who it is, chooses to continue as that account.
 * The parameters leave the address bar first, so a reload or a shared link never replays them.
 */
export async function loginFromUrl(
  store: JotaiStore,
  href: string = window.location.href,
  replaceUrl: (url: string) => void = (url) => window.history.replaceState(window.history.state, '', url),
): Promise<UrlLoginOutcome> {
  const url = new URL(href);
  const tokenParam = url.searchParams.get('token')?.trim();
  const tempKey = (url.searchParams.get('tempKey') ?? url.searchParams.get('tempkey'))?.trim();
  const state = url.searchParams.get('state');
  if (!tokenParam && !tempKey) return 'none';
  for (const name of LOGIN_PARAMS) url.searchParams.delete(name);
  replaceUrl(`${url.pathname}${url.search}${url.hash}`);

  try {
    const token = tokenParam || (await getTokenForTempKey(tempKey!));
    const user = await getUserByLogin({ asToken: token });
    const startedHere = await consumeLoginState(state);
    const sameAccount = store.get(tokenAtom) !== null && store.get(userInfoAtom)?.userId === user.userId;
    if (!startedHere && !sameAccount && !(await askUser(store, user))) return 'declined';
    await store.set(authActionAtom, { type: 'login', token, userInfo: user });
    if (!tokenParam) notifySuccess(i18next.t('login.succeeded'));
    return 'logged-in';
  } catch (error) {
    notifyError(loginFailureMessage(error));
    return 'failed';
  }
}
