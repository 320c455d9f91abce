import { z } from 'zod';
import { UserSettingSchema, type UserSetting } from '../contracts/user.ts';
import { apiGet, apiPost } from './request.ts';

export function getUserSetting(): Promise<UserSetting> {
  return apiGet('/api/User/GetUserSetting', undefined, { data: UserSettingSchema });
}

/** Saves the fields given; the server merges them into the stored document. */
export function saveUserSetting(setting: UserSetting): Promise<unknown> {
  return apiPost('/api/User/SaveUserSetting', setting);
}

export function updateNickName(userName: string): Promise<unknown> {
  return apiPost('/api/User/UpdateNickName', { userName });
}

/** Revokes the token on the server; the caller then forgets it locally whatever the answer. */
export function logoutOnServer(): Promise<unknown> {
  return apiPost('/api/User/Logout', undefined, { data: z.unknown() });
}

