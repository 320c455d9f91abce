import { z } from 'zod';
import { IntegralEntrySchema, UserInfoSchema, type IntegralEntry, type UserInfo, type UserSetting } from '../contracts/user.ts';
import { imageLink } from '../utils/image-link.ts';
import { apiGet, apiPost, getApiBase } from './request.ts';

/** A temp key from the login page is exchanged for a token (Data is the token). */
export function getTokenForTempKey(tempKey: string): Promise<string> {
  return apiGet('/api/User/GetTokenForTempKey', { tempKey }, { data: z.string().min(1) });
}

/**
 * The logged-in user, with the plan in force (vipOrder null for free users); with `asToken`, the
 * user a token not yet accepted belongs to (the stored login is left alone).
 */
export function getUserByLogin(options: { asToken?: string } = {}): Promise<UserInfo> {
  return apiGet('/api/User/GetUserByLogin', undefined, { data: UserInfoSchema, asToken: options.asToken });
}

/** The user's points entries; integralType 1 is the main balance. */
export function getUserIntegralByLogin(signal?: AbortSignal): Promise<IntegralEntry[]> {
  return apiGet('/api/User/GetUserIntegralByLogin', undefined, { data: z.array(IntegralEntrySchema), signal });
}

/** The main (integralType 1) points balance among the entries, 0 when absent. */
export function mainIntegralValue(entries: readonly IntegralEntry[]): number {
  return entries.find((entry) => entry.integralType === 1)?.integralValue ?? 0;
}

/** Revokes the token this call carries (the stored one) on the server. */
export async function logoutOnServer(options: { timeoutMs?: number } = {}): Promise<void> {
  await apiPost('/api/User/Logout', {}, { timeoutMs: options.timeoutMs });
}

/** Ends every login of the signed-in account on the server ("sign out everywhere"). */
export async function logoutEverywhereOnServer(): Promise<void> {
  await apiPost('/api/User/LogoutAll', {});
}

/** Saves the fields given; the server merges them into the stored document. */
export function saveUserSetting(setting: UserSetting): Promise<unknown> {
  return apiPost('/api/User/SaveUserSetting', setting);
}

export function updateNickName(userName: string): Promise<unknown> {
  return apiPost('/api/User/UpdateNickName', { userName });
}

/**
 * The full address of the user's picture (UserInfo.headImg, a path on the server) against the server
 * in use; '' without one. The sidebar, the popup, settings and the console show it.
 */
export function headImgLink(path: string | null | undefined): string {
  return imageLink(path, getApiBase() || globalThis.location?.origin || '');
}
