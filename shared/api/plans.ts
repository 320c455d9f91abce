import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import { pagedSchema, type Paged } from '../contracts/common.ts';
import {
  RedirectUrlSchema,
  SubscriptionChangeSchema,
  SubscriptionSchema,
  VipOrderSchema,
  VipPackageListSchema,
  type CreateCheckout,
  type Subscription,
  type VipOrder,
  type VipPackageList,
} from '../contracts/plans.ts';
import { VipPackageModelListSchema, type VipPackageModelList } from '../contracts/model.ts';
import { apiGet, apiPost } from './request.ts';

/**
 * Plans, payments and orders (docs/economy.md#plans, #payments-stripe, #orders): the packages on
 * sale, Stripe's checkout and portal, the subscription, and the caller's orders. The caller's
 * queries are keyed by the login token, so another account's plan never shows from the cache.
 */

/** The order history loads 10 orders per page. */
export const ORDER_PAGE_SIZE = 10;

/** The packages on sale priced in `currency` (the free plan first); public. */
export function getVipPackageList(currency: string, signal?: AbortSignal): Promise<VipPackageList> {
  return apiGet('/api/Vip/GetVipPackageList', { currency }, { data: VipPackageListSchema, signal });
}

/**
 * The package list in `currency`, or in usd when the server has no package priced in it (it then
 * lists the free plan alone) or refuses the currency.
 */
export async function getVipPackageListIn(currency: string, signal?: AbortSignal): Promise<VipPackageList> {
  if (currency === 'usd') return getVipPackageList('usd', signal);
  try {
    const list = await getVipPackageList(currency, signal);
    if (list.list.some((pkg) => pkg.level > 0)) return list;
  } catch (error) {
    if (signal?.aborted) throw error;
  }
  return getVipPackageList('usd', signal);
}

/** Stripe Checkout's address for a package; the browser goes there to pay. */
export async function createCheckout(input: CreateCheckout): Promise<string> {
  const { url } = await apiPost('/api/Vip/CreateCheckout', input, { data: RedirectUrlSchema });
  return url;
}

/** Stripe's customer portal (payment methods, invoices), returning to /subscription. */
export async function createPortalSession(): Promise<string> {
  const { url } = await apiPost('/api/Vip/CreatePortalSession', {}, { data: RedirectUrlSchema });
  return url;
}

/** The caller's subscription (the running one, else the latest); null when there never was one. */
export function getSubscription(signal?: AbortSignal): Promise<Subscription | null> {
  return apiGet('/api/Vip/GetSubscription', undefined, { data: SubscriptionSchema.nullable(), signal });
}

/** Stops renewing at the period's end (`cancel`), or undoes that; the plan runs until `endTime` either way. */
export function setSubscriptionCancelled(cancel: boolean): Promise<{ cancelAtPeriodEnd: boolean; endTime: string | null }> {
  return apiPost(cancel ? '/api/Vip/CancelSubscription' : '/api/Vip/ResumeSubscription', {}, { data: SubscriptionChangeSchema });
}

export function getVipOrderList(query: { page: number; count: number }, signal?: AbortSignal): Promise<Paged<VipOrder>> {
  return apiGet('/api/Vip/GetVipOrderList', query, { data: pagedSchema(VipOrderSchema), signal });
}

/** Removes an order from the caller's list (it stays the record of a payment, and in force). */
export async function deleteVipOrder(vipOrderId: string): Promise<void> {
  await apiPost('/api/Vip/DeleteVipOrder', { vipOrderId });
}

export const plansKey = ['plans'] as const;

export function vipPackageListQuery(currency: string) {
  return queryOptions({
    queryKey: [...plansKey, 'packages', currency] as const,
    queryFn: ({ signal }) => getVipPackageListIn(currency, signal),
    staleTime: 5 * 60_000,
  });
}

/**
 * What a package unlocks ('free': the free plan): the catalogue's models its level reaches, in
 * catalogue order. Public; operators also get packages not on sale.
 */
export function getVipPackageModels(vipPackageId: string, signal?: AbortSignal): Promise<VipPackageModelList> {
  return apiGet('/api/AiModel/GetModelListByVipPackageId', { vipPackageId }, { data: VipPackageModelListSchema, signal });
}

/** Under 'packages': a payment does not change what a plan unlocks (invalidatePlans leaves it). */
export function vipPackageModelsQuery(vipPackageId: string) {
  return queryOptions({
    queryKey: [...plansKey, 'packages', 'models', vipPackageId] as const,
    queryFn: ({ signal }) => getVipPackageModels(vipPackageId, signal),
    staleTime: 5 * 60_000,
  });
}

export function subscriptionQuery(token: string | null) {
  return queryOptions({
    queryKey: [...plansKey, 'subscription', token] as const,
    queryFn: ({ signal }) => getSubscription(signal),
    enabled: token !== null,
  });
}

export function vipOrderListQuery(token: string | null) {
  return infiniteQueryOptions({
    queryKey: [...plansKey, 'orders', token] as const,
    queryFn: ({ pageParam, signal }) => getVipOrderList({ page: pageParam, count: ORDER_PAGE_SIZE }, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages, lastPage) => {
      const loaded = pages.reduce((n, p) => n + p.list.length, 0);
      return last.list.length === ORDER_PAGE_SIZE && loaded < last.total ? lastPage + 1 : undefined;
    },
    enabled: token !== null,
  });
}

/** The caller's plan changed (a payment, a cancel): the subscription and the orders are read again. */
export function invalidatePlans(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] === plansKey[0] && query.queryKey[1] !== 'packages' });
}
