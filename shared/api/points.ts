import { queryOptions, type QueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { pagedSchema, type Paged } from '../contracts/common.ts';
import { CheckinStatusSchema, LedgerEntrySchema, type CheckinStatus, type LedgerEntry } from '../contracts/points.ts';
import { CheckCouponResultSchema, CheckPromoCodeResultSchema, type CheckCouponResult } from '../contracts/coupons.ts';
import { Codes } from '../contracts/envelope.ts';
import { RedeemResultSchema, type RedeemResult } from '../contracts/redeem-codes.ts';
import { ApiError, apiGet, apiPost } from './request.ts';

/**
 * Points (docs/economy.md): the history, the daily check-in, redeem codes and coupons entered as promo codes
 * (the balance and the poll after an answer are in points-balance.ts). Every query is
 * keyed by the login token, so another account never sees the last one's points.
 */

/** The browser's time zone (an IANA name): it decides which day a check-in counts for. */
export function userTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function getCheckinStatus(timeZone: string, signal?: AbortSignal): Promise<CheckinStatus> {
  return apiGet('/api/User/IsUserSignin', { timeZone }, { data: CheckinStatusSchema, signal });
}

/** Checks in for today; done already answers 10409 with the server's message ('Check-in failed' without one). */
export function checkIn(timeZone: string = userTimeZone()): Promise<CheckinStatus> {
  return apiPost('/api/User/UserSignin', { timeZone }, { data: CheckinStatusSchema, fallbackMessage: i18next.t('points.checkin.failed') });
}

export const checkinStatusKey = (token: string | null) => ['checkin-status', token] as const;

export function checkinStatusQuery(token: string | null) {
  const timeZone = userTimeZone();
  return queryOptions({
    queryKey: [...checkinStatusKey(token), timeZone] as const,
    queryFn: ({ signal }) => getCheckinStatus(timeZone, signal),
    enabled: token !== null,
    staleTime: 60_000,
  });
}

/** A page of the points history, newest first. */
export function getPointsHistory(page: number, count: number, signal?: AbortSignal): Promise<Paged<LedgerEntry>> {
  return apiGet('/api/User/GetUserIntegralLogList', { page, count }, { data: pagedSchema(LedgerEntrySchema), signal });
}

export const HISTORY_PAGE_SIZE = 10;
export const pointsHistoryKey = (token: string | null) => ['points-history', token] as const;

export function pointsHistoryQuery(token: string | null, page: number) {
  return queryOptions({
    queryKey: [...pointsHistoryKey(token), page] as const,
    queryFn: ({ signal }) => getPointsHistory(page, HISTORY_PAGE_SIZE, signal),
    enabled: token !== null,
  });
}

/**
 * Redeems a code (trimmed here; case, dashes and spaces do not matter to the server). Every refusal
 * answers 10400 with one message, 'Use failed, please check if the redemption code is correct'.
 */
export function redeemCode(code: string): Promise<RedeemResult> {
  return apiPost('/api/User/RedeemCode', { code: code.trim() }, { data: RedeemResultSchema, fallbackMessage: i18next.t('points.redeem.failed') });
}

/** What a code entered in the promo dialog turned out to be: a redeem code (now redeemed) or a coupon (for checkout). */
export type PromoCodeOutcome = { kind: 'redeem'; result: RedeemResult } | { kind: 'coupon'; code: string; coupon: CheckCouponResult };

/**
 * The promo dialog's code: asks the server what it is without using it (CheckPromoCode), then
 * redeems a redeem code, or describes a coupon, which is used at checkout. An unknown code fails with
 * the same message as a failed redeem, so codes cannot be told apart by probing.
 */
export async function applyPromoCode(code: string): Promise<PromoCodeOutcome> {
  const value = code.trim();
  const fallbackMessage = i18next.t('points.redeem.failed');
  const { kind } = await apiPost('/api/User/CheckPromoCode', { code: value }, { data: CheckPromoCodeResultSchema, fallbackMessage });
  if (kind === 'redeem') return { kind, result: await redeemCode(value) };
  if (kind === 'coupon') return { kind, code: value, coupon: await apiGet('/api/Coupons/CheckCoupon', { code: value }, { data: CheckCouponResultSchema }) };
  throw new ApiError(Codes.BadRequest, fallbackMessage);
}

/** After points changed (a check-in, a redeem, an answer): the balance and the history are read again. */
export function invalidatePoints(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['user-integral'] }),
    queryClient.invalidateQueries({ queryKey: ['points-history'] }),
  ]).then(() => undefined);
}
