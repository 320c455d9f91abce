import type { FastifyInstance } from 'fastify';
import { pagedSchema, PageQuerySchema } from '../../../shared/contracts/common.ts';
import { AdminCouponSchema, DisableCouponSchema, SaveCouponSchema } from '../../../shared/contracts/coupons.ts';
import { addRoute, savedId } from '../../http/route.ts';
import { listCoupons, saveCoupon, setCouponDisabled } from '../../services/plans/coupons.ts';

/** Operators' coupons (docs/economy.md#coupons): save, list, disable. */
export function registerAdminCouponRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'POST',
    url: '/api/admin/Coupons/Save',
    auth: 'admin',
    audit: { target: 'coupon', id: savedId('couponId') },
    summary:
      'Create a coupon, or replace the one with couponId: a code (4 to 32 of A-Z, 0-9, -; case-insensitive), percentOff (1 to 100) or amountOff in minor units with its currency, the packages and periods it applies to (empty: all), validFrom/validTo, maxRedemptions, duration once (first invoice) or forever. A code another coupon has answers 10409',
    body: SaveCouponSchema,
    data: AdminCouponSchema,
    handler: ({ ctx, body }) => saveCoupon(ctx.db, body),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/admin/Coupons/GetList',
    auth: 'admin',
    summary: 'The coupons, newest first, with their uses counted (timesRedeemed), held by open checkouts (reserved) and paid over the limit (overLimit)',
    query: PageQuerySchema,
    data: pagedSchema(AdminCouponSchema),
    handler: ({ ctx, query }) => listCoupons(ctx.db, query.page, query.count),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/admin/Coupons/Disable',
    auth: 'admin',
    audit: { target: 'coupon', id: ({ body }) => body.couponId },
    summary: 'Disable a coupon (checkouts refuse it; subscriptions that have it keep their discount) or enable it again; answers the coupon',
    body: DisableCouponSchema,
    data: AdminCouponSchema,
    handler: ({ ctx, body }) => setCouponDisabled(ctx.db, body.couponId, body.disabled),
  });
}
