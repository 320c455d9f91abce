import { z } from 'zod';
import { UserInfoSchema, type UserInfo } from '../contracts/user.ts';
import { apiGet } from './request.ts';

/** Spec §7: a temp key from the login page is exchanged for a token (Data is the token). */
export function getTokenForTempKey(tempKey: string): Promise<string> {
  return apiGet('/api/User/GetTokenForTempKey', { tempKey }, { data: z.string().min(1) });
}

/** The logged-in user, with the plan in force (vipOrder null for free users). */
export function getUserByLogin(): Promise<UserInfo> {
  return apiGet('/api/User/GetUserByLogin', undefined, { data: UserInfoSchema });
}
