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
import { addRoute } from '../../http/route.ts';
import { adjustPoints } from '../../services/ledger.ts';
import { deletePackage, extendEndTime, listAdminPackages, savePackage } from '../../services/plans.ts';

export function registerAdminVipRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'POST',
    url: '/api/admin/Vip/AddIntegral',
    auth: 'admin',
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
    summary: 'Take a package off sale and off every list; subscriptions already sold keep renewing at its level',
    body: VipPackageIdBodySchema,
    handler: async ({ ctx, body }) => {
      await deletePackage(ctx.db, body.vipPackageId);
      return null;
    },
  });
}
