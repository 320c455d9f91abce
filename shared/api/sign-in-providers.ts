import {
  AutoLinkResponseSchema,
  ProviderActionSchema,
  ProviderListSchema,
  UserProviderListSchema,
  type AutoLinkRequest,
  type Provider,
  type ProviderActionQuery,
  type UserProviderList,
} from '../contracts/sign-in-providers.ts';
import { apiGet, apiPost } from './request.ts';

/** Sign in with another account (docs/api.md#sign-in-with-another-account). */

/** The enabled providers, for the login page's buttons (signed out). */
export async function getProviderListAll(signal?: AbortSignal): Promise<Provider[]> {
  return (await apiGet('/api/Account/GetProviderListAll', undefined, { data: ProviderListSchema, signal })).list;
}

/**
 * Starts a sign-in or a link: the provider's address to send the browser to. The server binds it to
 * this browser with a cookie, so it must be called from the page that then goes there.
 */
export async function getProviderByAction(query: ProviderActionQuery): Promise<string> {
  return (await apiGet('/api/Account/GetProviderByAction', query, { data: ProviderActionSchema })).url;
}

/** Confirms linking a provider to the existing account with its e-mail; answers a temp key for that account. */
export async function autoLinkWeb(body: AutoLinkRequest): Promise<string> {
  return (await apiPost('/api/User/AutoLinkWeb', body, { data: AutoLinkResponseSchema })).tempKey;
}

/** The signed-in user's linked providers, and whether the account has a password. */
export function getUserProviderList(signal?: AbortSignal): Promise<UserProviderList> {
  return apiGet('/api/User/GetUserProviderList', undefined, { data: UserProviderListSchema, signal });
}

/** Unlinks a provider; refused (10409) when it is the account's last way to sign in. */
export async function deleteUserProvider(id: string): Promise<void> {
  await apiPost('/api/User/DeleteUserProvider', { id });
}
