import { atom } from 'jotai';
import { z } from 'zod';
import { SettingListSchema, type Setting } from '../contracts/system.ts';
import { UserInfoSchema, type UserInfo } from '../contracts/user.ts';
import { clearPersisted } from '../storage/active.ts';
import { definePersisted } from '../storage/persisted.ts';
import { atomWithPersisted } from './persisted.ts';
import { userConfigPersisted } from './user-config.ts';

/** The Auth store (token, user, points, system settings), one declaration per field. */
export const tokenPersisted = definePersisted<string | null>({
  key: 'tandem.auth.token',
  version: 1,
  schema: z.string().min(1).nullable(),
  fallback: null,
});

export const userInfoPersisted = definePersisted<UserInfo | null>({
  key: 'tandem.auth.userInfo',
  version: 1,
  schema: UserInfoSchema.nullable(),
  fallback: null,
});

/** The main (integralType 1) points balance. */
export const integralValuePersisted = definePersisted<number>({
  key: 'tandem.auth.integralValue',
  version: 1,
  schema: z.number().int(),
  fallback: 0,
});

/** The public system settings (login_page_url, vip_url, ...). */
export const systemConfigPersisted = definePersisted<Setting[]>({
  key: 'tandem.auth.systemConfig',
  version: 1,
  schema: SettingListSchema,
  fallback: [],
});

export const authPersisted = [tokenPersisted, userInfoPersisted, integralValuePersisted, systemConfigPersisted] as const;

const tokenStoreAtom = atomWithPersisted(tokenPersisted);
const userInfoStoreAtom = atomWithPersisted(userInfoPersisted);
const integralValueStoreAtom = atomWithPersisted(integralValuePersisted);
const systemConfigStoreAtom = atomWithPersisted(systemConfigPersisted);

// Read-only views: every write goes through authActionAtom.
export const tokenAtom = atom((get) => get(tokenStoreAtom));
export const userInfoAtom = atom((get) => get(userInfoStoreAtom));
export const integralValueAtom = atom((get) => get(integralValueStoreAtom));
export const systemConfigAtom = atom((get) => get(systemConfigStoreAtom));
export const isLoggedInAtom = atom((get) => get(tokenStoreAtom) !== null);

export type AuthAction =
  | { type: 'login'; token: string; userInfo?: UserInfo }
  | { type: 'logout' }
  | { type: 'userInfo'; userInfo: UserInfo }
  | { type: 'integralValue'; integralValue: number }
  | { type: 'systemConfig'; settings: Setting[] };

/** The one writer of the Auth store. Logging out keeps the public system settings. */
export const authActionAtom = atom(null, async (_get, set, action: AuthAction): Promise<void> => {
  switch (action.type) {
    case 'login':
      await Promise.all([
        set(tokenStoreAtom, action.token),
        action.userInfo ? set(userInfoStoreAtom, action.userInfo) : undefined,
      ]);
      return;
    case 'logout':
      // The user's settings cache goes too, as the background's logout clears it (entrypoints/background/messages.ts).
      await Promise.all([
        set(tokenStoreAtom, null),
        set(userInfoStoreAtom, null),
        set(integralValueStoreAtom, 0),
        clearPersisted(userConfigPersisted),
      ]);
      return;
    case 'userInfo':
      return set(userInfoStoreAtom, action.userInfo);
    case 'integralValue':
      return set(integralValueStoreAtom, action.integralValue);
    case 'systemConfig':
      return set(systemConfigStoreAtom, action.settings);
  }
});
