import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AdminVipPackageSchema,
  ExtendEndTimeResultSchema,
  ExtendEndTimeSchema,
  SaveVipPackageSchema,
  VipPackageIdBodySchema,
} from '../../../shared/contracts/plans.ts';
import { AdminAdjustPointsResultSchema, AdminAdjustPointsSchema } from '../../../shared/contracts/points.ts';
import {
  AdminOrderIdQuerySchema,
  AdminOrderListQuerySchema,
  AdminOrderSchema,
  AdminSubscriptionListQuerySchema,
  AdminSubscriptionSchema,
} from '../../../shared/contracts/admin-money.ts';
import { pagedSchema } from '../../../shared/contracts/common.ts';
import { addRoute, savedId } from '../../http/route.ts';
import { adjustPoints } from '../../services/points/ledger.ts';
import { deletePackage, extendEndTime, listAdminPackages, packageById, savePackage } from '../../services/plans/plans.ts';
import { userAuditState } from '../../services/admin/users.ts';
import { getOrder, listOrders, listSubscriptions } from '../../services/admin/money.ts';

export function registerAdminPlanRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/admin/Vip/GetOrderList',
    auth: 'admin',
    summary:
      "Every user's orders (plan time from Stripe, redeem codes, grants), newest first, with the user's e-mail; filters: status (derived from the times), source, userId, e-mail part, creation date range",
    query: AdminOrderListQuerySchema,
    data: pagedSchema(AdminOrderSchema),
    handler: ({ ctx, query }) => listOrders(ctx, query),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/admin/Vip/GetOrderById',
    auth: 'admin',
    summary: 'One order, with its payment, refund and plan points',
    query: AdminOrderIdQuerySchema,
    data: AdminOrderSchema,
    handler: ({ ctx, query }) => getOrder(ctx, query.vipOrderId),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/admin/Vip/GetSubscriptionList',
    auth: 'admin',
    summary: "Stripe subscriptions as their events left them (status, plan, period end, cancel at period end), most recently changed first; filters: status, userId, e-mail part",
    query: AdminSubscriptionListQuerySchema,
    data: pagedSchema(AdminSubscriptionSchema),
    handler: ({ ctx, query }) => listSubscriptions(ctx, query),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/admin/Vip/AddIntegral',
    auth: 'admin',
    audit: { target: 'user', id: ({ body }) => body.userId, load: userAuditState },
    summary:
      "Grant (positive amount) or deduct (negative) a user's points, with a reason the user sees; applied once per requestId. Applied false: that requestId was applied before",
    body: AdminAdjustPointsSchema,
    data: AdminAdjustPointsResultSchema,
    handler: ({ ctx, body }) => adjustPoints(ctx.db, body),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/admin/Vip/ExtendEndTime',
    auth: 'admin',
    audit: { target: 'user', id: ({ body }) => body.userId, load: userAuditState },
    summary:
      "Grant a user plan days at a level (1 Standard to 3 Super), after the user's latest order at that level or above; applied once per requestId. Applied false: that requestId was applied before (its order is answered)",
    body: ExtendEndTimeSchema,
    data: ExtendEndTimeResultSchema,
    handler: ({ ctx, body }) => extendEndTime(ctx.db, body),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/admin/Vip/GetPackageList',
    auth: 'admin',
    summary: 'Every package (online or not), by sort, with its prices and Stripe price ids',
    data: z.array(AdminVipPackageSchema),
    handler: ({ ctx }) => listAdminPackages(ctx.db),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/admin/Vip/SavePackage',
    auth: 'admin',
    audit: { target: 'vipPackage', id: savedId('vipPackageId'), load: (ctx, id) => packageById(ctx.db, id) },
    summary:
      'Create a package, or replace the one with this vipPackageId (a deleted one comes back). Prices are in minor units per currency ({usd: 999}); a Stripe price id per currency is used at checkout instead of the inline price',
    body: SaveVipPackageSchema,
    data: AdminVipPackageSchema,
    handler: ({ ctx, body }) => savePackage(ctx.db, body),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/admin/Vip/DeletePackage',
    auth: 'admin',
    audit: { target: 'vipPackage', id: ({ body }) => body.vipPackageId, load: (ctx, id) => packageById(ctx.db, id) },
    summary: 'Take a package off sale and off every list; subscriptions already sold keep renewing at its level',
    body: VipPackageIdBodySchema,
    handler: async ({ ctx, body }) => {
      await deletePackage(ctx.db, body.vipPackageId);
      return null;
    },
  });
}
