import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import {
  AdminUserDetailSchema,
  AdminUserLedgerPageSchema,
  AdminUserListSchema,
  AdminUserSchema,
  VisitorUserListSchema,
  type AdminUser,
  AdminUserPageSchema,
  DeletePreviewSchema,
  DeleteUserResultSchema,
  EndPlanResultSchema,
  ExtendPlanResultSchema,
  GrantPointsResultSchema,
  PasswordResetLinkSchema,
  type AdminUserListQuery,
  type DeletePreview,
  type ExtendPlanSchema,
  type GrantPoints,
} from '../../shared/contracts/admin-users.ts';
import { ApiError, apiGet, apiPost } from '../../shared/api/request.ts';
import { Codes } from '../../shared/contracts/envelope.ts';

/**
 * The console's Users pages (/api/admin/User/*, docs/api.md): the searchable list, one user's page
 * and ledger, and the operator's actions on an account (each written to the audit log).
 */

/** Every query of the Users pages starts with this key: an action refetches them all. */
export const adminUsersKey = ['admin', 'users'] as const;

/** Rows per page of the users list and of a user's ledger. */
export const USERS_PAGE_SIZE = 20;
export const LEDGER_PAGE_SIZE = 20;

/** A filter not chosen is undefined (not ''): the request helper leaves it out of the address. */
export type UserListFilters = Partial<Omit<AdminUserListQuery, 'page' | 'count' | 'email'>>;

export function adminUserListQuery(page: number, filters: UserListFilters) {
  return queryOptions({
    queryKey: [...adminUsersKey, 'list', page, filters] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/User/GetList', { page, count: USERS_PAGE_SIZE, ...filters }, { data: AdminUserPageSchema, signal }),
    // The table keeps its rows while the next page or order is on its way.
    placeholderData: keepPreviousData,
  });
}

/** How the Users page finds accounts: the paged list's search, or one of the exact look-ups. */
export const FIND_BY = ['list', 'account', 'email', 'phone', 'id', 'visitor'] as const;
export type FindBy = (typeof FIND_BY)[number];
/** A row a look-up finds; by visitor id, with when the account was last seen there. */
export type FoundUser = AdminUser & { lastSeenTime?: string };

/** A look-up's rows: none when there is no such account (10404), else its answer. */
async function lookUp(by: Exclude<FindBy, 'list'>, value: string, signal: AbortSignal): Promise<FoundUser[]> {
  const one = async (url: string, query: Record<string, string>) => {
    try {
      return [await apiGet(url, query, { data: AdminUserSchema, signal })];
    } catch (error) {
      if (error instanceof ApiError && error.code === Codes.NotFound) return [];
      throw error;
    }
  };
  switch (by) {
    case 'id':
      return one('/api/Account/GetUserById', { userId: value });
    case 'email':
      return one('/api/Account/GetUserByEmail', { email: value });
    case 'phone':
      return one('/api/Account/GetUserByPhone', { phone: value });
    case 'account':
      return (await apiGet('/api/Account/GetUserByAccount', { account: value }, { data: AdminUserListSchema, signal })).list;
    case 'visitor':
      return (await apiGet('/api/Account/GetUserByVisotorId', { visitorId: value }, { data: VisitorUserListSchema, signal })).list;
  }
}

/** The accounts an exact look-up finds, shaped as one page of the list. */
export function adminUserLookupQuery(by: Exclude<FindBy, 'list'>, value: string) {
  return queryOptions({
    queryKey: [...adminUsersKey, 'lookup', by, value] as const,
    queryFn: async ({ signal }) => {
      const list = await lookUp(by, value, signal);
      return { list, total: list.length };
    },
    enabled: value !== '',
    retry: false,
  });
}

export function adminUserQuery(userId: string) {
  return queryOptions({
    queryKey: [...adminUsersKey, 'user', userId] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/User/GetById', { userId }, { data: AdminUserDetailSchema, signal }),
  });
}

export function adminUserLedgerQuery(userId: string, page: number) {
  return queryOptions({
    queryKey: [...adminUsersKey, 'ledger', userId, page] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/User/GetLedger', { userId, page, count: LEDGER_PAGE_SIZE }, { data: AdminUserLedgerPageSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

export function grantPoints(body: GrantPoints) {
  return apiPost('/api/admin/User/GrantPoints', body, { data: GrantPointsResultSchema });
}

export function extendPlan(body: z.input<typeof ExtendPlanSchema>) {
  return apiPost('/api/admin/User/ExtendPlan', body, { data: ExtendPlanResultSchema });
}

export function endPlan(userId: string) {
  return apiPost('/api/admin/User/EndPlan', { userId }, { data: EndPlanResultSchema });
}

export async function setUserRole(userId: string, role: 'user' | 'admin'): Promise<void> {
  await apiPost('/api/admin/User/SetRole', { userId, role });
}

/** Closes the account (its logins end at once: its next call is refused with 10402). */
export async function closeUser(userId: string): Promise<void> {
  await apiPost('/api/admin/User/Close', { userId });
}

export async function reopenUser(userId: string): Promise<void> {
  await apiPost('/api/admin/User/Reopen', { userId });
}

export function sendPasswordReset(userId: string) {
  return apiPost('/api/admin/User/SendPasswordReset', { userId }, { data: PasswordResetLinkSchema });
}

export function getDeletePreview(userId: string, signal?: AbortSignal): Promise<DeletePreview> {
  return apiGet('/api/admin/User/GetDeletePreview', { userId }, { data: DeletePreviewSchema, signal });
}

export function deleteUser(userId: string, confirmEmail: string) {
  return apiPost('/api/admin/User/Delete', { userId, confirmEmail }, { data: DeleteUserResultSchema });
}
