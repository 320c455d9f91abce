import { authActionAtom, tokenAtom, userInfoAtom } from '../../shared/atoms/auth.ts';
import type { LoginState } from '../../shared/contracts/extension.ts';
import type { PageBridge } from '../../shared/messaging/page-bridge.ts';
import { completeLogin } from './login-actions.ts';
import type { JotaiStore } from '../app-shell/start.ts';

/** How long the web app waits for the bridge content script (it runs at document start when installed). */
export const AUTH_SYNC_READY_TIMEOUT_MS = 3_000;

export interface AuthSyncOptions {
  readyTimeoutMs?: number;
}

/**
 * Keeps the web app's login and the extension's in step (web app only; extension pages share the
 * extension's storage instead). At start: a logged-out page adopts the extension's login, a
 * logged-in page hands its login to the extension. Afterwards every change on either side is
 * mirrored on the other. Each side acts only when the other's token differs from its own, so an
 * echo ends the exchange. Returns the stop function.
 */
export function startAuthSync(store: JotaiStore, bridge: PageBridge, options: AuthSyncOptions = {}): () => void {
  let stopped = false;
  const cleanups: (() => void)[] = [];
  /** What the extension was last told, to skip repeats (JSON of [token, userInfo]). */
  let lastSent: string | undefined;
  let sendScheduled = false;
  /** The token being adopted from the extension, so a repeated push does not log in twice. */
  let adopting: string | null = null;

  const report = (what: string) => (error: unknown) => console.warn(`auth sync: ${what} failed`, error);

  const sendState = async () => {
    sendScheduled = false;
    if (stopped) return;
    const state: LoginState = { token: store.get(tokenAtom), userInfo: store.get(userInfoAtom) };
    if (state.token === null) state.userInfo = null;
    const key = JSON.stringify([state.token, state.userInfo]);
    if (key === lastSent) return;
    lastSent = key;
    try {
      await bridge.request('syncLoginState', state);
    } catch (error) {
      // Told nothing: the next change (or the same state again) is sent anew.
      if (lastSent === key) lastSent = undefined;
      report('syncLoginState')(error);
    }
  };

  // A login sets the token, then the user: one message for both when they land together.
  const scheduleSend = () => {
    if (sendScheduled || stopped) return;
    sendScheduled = true;
    queueMicrotask(() => void sendState());
  };

  const adopt = async (token: string) => {
    if (adopting === token) return;
    adopting = token;
    try {
      await completeLogin(store, token);
    } catch (error) {
      // An invalid token answers 10402: the request helper has logged the page out, which the
      // token subscription then reports to the extension.
      report('adopting the extension login')(error);
    } finally {
      if (adopting === token) adopting = null;
    }
  };

  const onExtensionState = (state: LoginState) => {
    if (stopped || state.token === store.get(tokenAtom) || (state.token !== null && state.token === adopting)) return;
    if (state.token === null) void store.set(authActionAtom, { type: 'logout' }).catch(report('logging out'));
    else void adopt(state.token);
  };

  void (async () => {
    if (!(await bridge.ready(options.readyTimeoutMs ?? AUTH_SYNC_READY_TIMEOUT_MS)) || stopped) return;
    // Subscribed before the first exchange, so nothing that changes meanwhile is missed.
    cleanups.push(bridge.onLoginState(onExtensionState));
    cleanups.push(store.sub(tokenAtom, scheduleSend), store.sub(userInfoAtom, scheduleSend));

    if (store.get(tokenAtom) !== null) {
      scheduleSend();
      return;
    }
    try {
      const held = await bridge.request('getLoginToken', undefined);
      // The page may have logged in while the extension answered: the page's login stands.
      if (held && !stopped && store.get(tokenAtom) === null) await adopt(held.token);
    } catch (error) {
      report('getLoginToken')(error);
    }
  })();

  return () => {
    stopped = true;
    for (const cleanup of cleanups.splice(0)) cleanup();
  };
}
