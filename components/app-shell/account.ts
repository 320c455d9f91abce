import { useQuery } from '@tanstack/react-query';
import { useAtomValue, useStore } from 'jotai';
import { useEffect } from 'react';
import { getUserByLogin, logoutOnServer } from '../../shared/api/user.ts';
import { authActionAtom, isLoggedInAtom } from '../../shared/atoms/auth.ts';
import type { JotaiStore } from './start.ts';

/**
 * Keeps the stored user current while logged in: the plan may have changed since it was stored
 * (bought elsewhere, expired), and a login synced from another context may arrive without its user.
 */
export function useFreshUserInfo(): void {
  const store = useStore();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const user = useQuery({ queryKey: ['user-info', loggedIn], queryFn: () => getUserByLogin(), enabled: loggedIn, staleTime: 60_000 });
  useEffect(() => {
    if (user.data && store.get(isLoggedInAtom)) void store.set(authActionAtom, { type: 'userInfo', userInfo: user.data });
  }, [user.data, store]);
}

/**
 * Signs out: the token is revoked on the server first (while it is still stored to authenticate the
 * call), then forgotten here whatever the server answered (offline, already expired).
 */
export async function signOut(store: JotaiStore): Promise<void> {
  await logoutOnServer().catch((error: unknown) => console.warn('Logout call failed', error));
  await store.set(authActionAtom, { type: 'logout' });
}
