import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import {
  AdminUserDetailSchema,
  AdminUserLedgerPageSchema,
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
import { apiGet, apiPost } from '../../shared/api/request.ts';

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
