import i18next from 'i18next';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import {
  AdminOrderSchema,
  AdminSubscriptionSchema,
  InviteStatisticsSchema,
  type AdminOrderListQuery,
  type AdminSubscriptionListQuery,
  type InviteStatisticsQuery,
} from '../../shared/contracts/admin-money.ts';
import { AdminInviteCodePageSchema, AdminInviteCodeSchema, AdminInviteUsePageSchema, type AdminInviteCode } from '../../shared/contracts/admin-invites.ts';
import { pagedSchema } from '../../shared/contracts/common.ts';
import { AdminCouponSchema, type AdminCoupon, type SaveCouponSchema } from '../../shared/contracts/coupons.ts';
import { Codes } from '../../shared/contracts/envelope.ts';
import { AdminVipPackageSchema, type AdminVipPackage, type SaveVipPackageSchema } from '../../shared/contracts/plans.ts';
import { RedeemBatchCreatedSchema, RedeemBatchSchema, RedeemCodeEntrySchema, type RedeemBatch, type RedeemBatchCreate } from '../../shared/contracts/redeem-codes.ts';
import { getVipPackageModels } from '../../shared/api/plans.ts';
import { AdminPosterSettingsSchema, POSTER, type AdminPosterSettings, type AdminSavePosterBody } from '../../shared/contracts/poster.ts';
import { ApiError, apiGet, apiGetFile, apiPost, apiUrl, httpErrorMessage, requestHeaders, transportError, unwrapEnvelope } from '../../shared/api/request.ts';

/**
 * The console's money pages: plans and prices (/api/admin/Vip/*Package*), orders and Stripe
 * subscriptions, redeem-code batches, coupons and invite statistics (docs/api.md, docs/economy.md).
 */

/** Every money query starts with this key: a change refetches the money pages. */
export const adminMoneyKey = ['admin', 'money'] as const;

/** Rows per page of the money tables. */
export const MONEY_PAGE_SIZE = 20;

/** Leaves out empty filters, so the query string carries only what was chosen. */
const present = <T extends Record<string, unknown>>(query: T) =>
  Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Record<string, string | number>;

// ---- plans and prices ----

export function adminPackagesQuery() {
  return queryOptions({
    queryKey: [...adminMoneyKey, 'packages'] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/Vip/GetPackageList', undefined, { data: z.array(AdminVipPackageSchema), signal }),
  });
}

/**
 * What a package unlocks (GetModelListByVipPackageId, which answers operators for packages not on
 * sale too). Under the money key: a saved or deleted package is read again.
 */
export function adminPackageModelsQuery(vipPackageId: string) {
  return queryOptions({
    queryKey: [...adminMoneyKey, 'package-models', vipPackageId] as const,
    queryFn: ({ signal }) => getVipPackageModels(vipPackageId, signal),
  });
}

export type SavePackageInput = z.input<typeof SaveVipPackageSchema>;

export function saveAdminPackage(body: SavePackageInput): Promise<AdminVipPackage> {
  return apiPost('/api/admin/Vip/SavePackage', body, { data: AdminVipPackageSchema });
}

export async function deleteAdminPackage(vipPackageId: string): Promise<void> {
  await apiPost('/api/admin/Vip/DeletePackage', { vipPackageId });
}

// ---- orders and subscriptions ----

export type OrderFilters = Partial<Omit<AdminOrderListQuery, 'page' | 'count'>>;

export function adminOrdersQuery(page: number, filters: OrderFilters) {
  return queryOptions({
    queryKey: [...adminMoneyKey, 'orders', page, filters] as const,
    queryFn: ({ signal }) =>
      apiGet('/api/admin/Vip/GetOrderList', present({ ...filters, page, count: MONEY_PAGE_SIZE }), { data: pagedSchema(AdminOrderSchema), signal }),
    placeholderData: keepPreviousData,
  });
}

export type SubscriptionFilters = Partial<Omit<AdminSubscriptionListQuery, 'page' | 'count'>>;

export function adminSubscriptionsQuery(page: number, filters: SubscriptionFilters) {
  return queryOptions({
    queryKey: [...adminMoneyKey, 'subscriptions', page, filters] as const,
    queryFn: ({ signal }) =>
      apiGet('/api/admin/Vip/GetSubscriptionList', present({ ...filters, page, count: MONEY_PAGE_SIZE }), { data: pagedSchema(AdminSubscriptionSchema), signal }),
    placeholderData: keepPreviousData,
  });
}

// ---- redeem codes ----

export function redeemBatchesQuery(page: number) {
  return queryOptions({
    queryKey: [...adminMoneyKey, 'redeem', page] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/RedeemCode/GetBatchList', { page, count: MONEY_PAGE_SIZE }, { data: pagedSchema(RedeemBatchSchema), signal }),
    placeholderData: keepPreviousData,
  });
}

export function redeemCodesQuery(batchId: string, page: number) {
  return queryOptions({
    queryKey: [...adminMoneyKey, 'redeem-codes', batchId, page] as const,
    queryFn: ({ signal }) =>
      apiGet('/api/admin/RedeemCode/GetCodeList', { batchId, page, count: MONEY_PAGE_SIZE }, { data: pagedSchema(RedeemCodeEntrySchema), signal }),
    placeholderData: keepPreviousData,
  });
}

export function generateRedeemBatch(body: Partial<RedeemBatchCreate> & Pick<RedeemBatchCreate, 'name' | 'count'>) {
  return apiPost('/api/admin/RedeemCode/GenerateBatch', body, { data: RedeemBatchCreatedSchema });
}

export function setRedeemBatchDisabled(batchId: string, disabled: boolean): Promise<RedeemBatch> {
  return apiPost('/api/admin/RedeemCode/DisableBatch', { batchId, disabled }, { data: RedeemBatchSchema });
}

/**
 * A batch's codes as the server's CSV (a download: the file name it gives, and the text). The
 * export is not an envelope, so it is read here rather than by `request`; a refusal still is one.
 */
export async function exportRedeemBatch(batchId: string): Promise<{ fileName: string; csv: string }> {
  const headers = await requestHeaders();
  let response: Response;
  try {
    response = await fetch(apiUrl('/api/admin/RedeemCode/ExportBatch', { batchId }), { headers });
  } catch (error) {
    throw transportError(error, undefined);
  }
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok) throw new ApiError(Codes.ServerError, httpErrorMessage(response.status), response.status);
  if (type.includes('json')) {
    await unwrapEnvelope(await response.json());
    throw new ApiError(Codes.ServerError, i18next.t('request.error'));
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `redeem-codes-${batchId}.csv`;
  return { fileName, csv: await response.text() };
}

// ---- coupons ----

export function couponsQuery(page: number) {
  return queryOptions({
    queryKey: [...adminMoneyKey, 'coupons', page] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/Coupons/GetList', { page, count: MONEY_PAGE_SIZE }, { data: pagedSchema(AdminCouponSchema), signal }),
    placeholderData: keepPreviousData,
  });
}

export type SaveCouponInput = z.input<typeof SaveCouponSchema>;

export function saveCoupon(body: SaveCouponInput): Promise<AdminCoupon> {
  return apiPost('/api/admin/Coupons/Save', body, { data: AdminCouponSchema });
}

export function setCouponDisabled(couponId: string, disabled: boolean): Promise<AdminCoupon> {
  return apiPost('/api/admin/Coupons/Disable', { couponId, disabled }, { data: AdminCouponSchema });
}

// ---- invites ----

export function inviteStatisticsQuery(query: Partial<InviteStatisticsQuery>) {
  return queryOptions({
    queryKey: [...adminMoneyKey, 'invites', query] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/InviteCode/GetStatistics', present(query), { data: InviteStatisticsSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

// ---- invite poster ----

/** The invite poster's settings (docs/api.md#invite-poster). */
export function adminPosterQuery() {
  return queryOptions({
    queryKey: [...adminMoneyKey, 'poster'] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/Poster/Get', undefined, { data: AdminPosterSettingsSchema, signal }),
  });
}

export function saveAdminPoster(body: AdminSavePosterBody): Promise<AdminPosterSettings> {
  return apiPost('/api/admin/Poster/Save', body, { data: AdminPosterSettingsSchema });
}

/** Sends the operator's picture as the server takes it: multipart, one file as POSTER.pictureField. */
export function uploadPosterPicture(file: File): Promise<AdminPosterSettings> {
  const form = new FormData();
  form.append(POSTER.pictureField, file, file.name);
  return apiPost('/api/admin/Poster/SavePicture', form, { data: AdminPosterSettingsSchema });
}

/** The poster with a sample account, the draft words and colour over the saved ones; made anew after every save. */
export function adminPosterPreviewQuery(query: { lang: 'en' | 'zh'; headline: string; subtext: string; accentColor: string }, updateTime: string | null) {
  return queryOptions({
    queryKey: [...adminMoneyKey, 'poster', 'preview', query, updateTime] as const,
    queryFn: ({ signal }) => apiGetFile('/api/admin/Poster/Preview', query, { signal }),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    retry: false,
  });
}

// ---- invite codes and their uses ----

export function inviteCodesQuery(query: { page: number; keyword?: string; status?: 'all' | 'active' | 'disabled' }) {
  return queryOptions({
    queryKey: [...adminMoneyKey, 'invite-codes', query] as const,
    queryFn: ({ signal }) =>
      apiGet('/api/admin/InviteCode/GetList', present({ ...query, count: MONEY_PAGE_SIZE }), { data: AdminInviteCodePageSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

export function setInviteCodeDisabled(ownerId: string, disabled: boolean): Promise<AdminInviteCode> {
  return apiPost('/api/admin/InviteCode/Disable', { ownerId, disabled }, { data: AdminInviteCodeSchema });
}

export function inviteUsesQuery(query: { page: number; keyword?: string }) {
  return queryOptions({
    queryKey: [...adminMoneyKey, 'invite-uses', query] as const,
    queryFn: ({ signal }) => apiGet('/api/admin/InviteCodeUsed/GetList', present({ ...query, count: MONEY_PAGE_SIZE }), { data: AdminInviteUsePageSchema, signal }),
    placeholderData: keepPreviousData,
  });
}
