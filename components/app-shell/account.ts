import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useAtomValue, useStore } from 'jotai';
import { useEffect, useRef } from 'react';
import { getUserByLogin, logoutEverywhereOnServer, logoutOnServer } from '../../shared/api/user.ts';
import { authActionAtom, isLoggedInAtom, tokenAtom } from '../../shared/atoms/auth.ts';
import type { JotaiStore } from './start.ts';

/** The user-info query's key, before the token. */
export const userInfoKey = ['user-info'] as const;

/** Reads the user again now (a plan granted by a redeem code shows at once on every surface). */
export function refreshUserInfo(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: userInfoKey });
}

/**
 * Keeps the stored user current while logged in: the plan may have changed since it was stored
 * (bought elsewhere, expired), and a login synced from another context may arrive without its user.
 */
/** How old the user may be when the window gets the focus before it is read again. */
const FOCUS_REFRESH_MS = 10_000;

export function useFreshUserInfo(): void {
  const store = useStore();
  // Keyed by the token: after another account logs in, the cached user of the last one is not reused.
  const token = useAtomValue(tokenAtom);
  const user = useQuery({ queryKey: [...userInfoKey, token], queryFn: () => getUserByLogin(), enabled: token !== null, staleTime: 60_000 });
  useEffect(() => {
    if (user.data && store.get(isLoggedInAtom)) void store.set(authActionAtom, { type: 'userInfo', userInfo: user.data });
  }, [user.data, store]);
  // A plan bought in another tab shows when the user comes back here. The side panel stays visible
  // beside the page, so it is the window's focus that says so (the queries only watch visibility).
  // At most once in FOCUS_REFRESH_MS: a panel the user clicks in and out of asks once.
  const { refetch, dataUpdatedAt } = user;
  const updatedAt = useRef(dataUpdatedAt);
  updatedAt.current = dataUpdatedAt;
  useEffect(() => {
    if (token === null) return;
    const onFocus = () => {
      if (Date.now() - updatedAt.current >= FOCUS_REFRESH_MS) void refetch();
    };
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [token, refetch]);
}

/**
 * Signs out: the token is revoked on the server first (while it is still stored to authenticate the
 * call), then forgotten here whatever the server answered (offline, already expired).
 */
export async function signOut(store: JotaiStore): Promise<void> {
  await logoutOnServer().catch((error: unknown) => console.warn('Logout call failed', error));
  await store.set(authActionAtom, { type: 'logout' });
}

/**
 * Signs out everywhere: every login of the account ends on the server (other browsers, devices,
 * a token someone copied); this one is forgotten only once the server has done it, so a failure
 * leaves the user signed in and able to try again.
 */
export async function signOutEverywhere(store: JotaiStore): Promise<void> {
  await logoutEverywhereOnServer();
  await store.set(authActionAtom, { type: 'logout' });
}
