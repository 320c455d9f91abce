import type { FastifyInstance } from 'fastify';
import {
  CheckCouponQuerySchema,
  CheckCouponResultSchema,
  CheckPromoCodeBodySchema,
  CheckPromoCodeResultSchema,
} from '../../shared/contracts/coupons.ts';
import { addRoute } from '../http/route.ts';
import { checkCoupon, checkPromoCode } from '../services/plans/coupons.ts';
import { CODE_GUESSING_RATE_LIMIT } from './points.ts';

/** What a code typed in the promo-code box is and gives (docs/economy.md#coupons). */
export function registerCouponRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/Coupons/CheckCoupon',
    auth: 'optional',
    summary:
      'Whether a coupon can be used now (for vipPackageId and currency when given), what it takes off, the packages on sale it applies to, and a message saying what it gives or why it cannot be used. Coupons are not secret: an unknown code answers valid false',
    query: CheckCouponQuerySchema,
    data: CheckCouponResultSchema,
    // Each call reads a few rows; this only stops a client hammering the database.
    rateLimit: { max: 60, timeWindow: 60_000 },
    handler: ({ ctx, user, query, lang }) => checkCoupon(ctx, user?.id ?? null, query, lang),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/User/CheckPromoCode',
    auth: 'user',
    summary:
      'Which kind of code this is, without using it: coupon (CheckCoupon tells what it gives), redeem (a redeem code the caller can redeem now) or unknown (anything else, alike). Unknown answers count as failed redeem attempts (10429 after too many)',
    body: CheckPromoCodeBodySchema,
    data: CheckPromoCodeResultSchema,
    // The same limits as RedeemCode: asking must not probe redeem codes faster than redeeming.
    rateLimit: CODE_GUESSING_RATE_LIMIT,
    handler: ({ ctx, user, body }) => checkPromoCode(ctx, user.id, body.code),
  });
}
