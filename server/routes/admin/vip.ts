import type { FastifyInstance } from 'fastify';
import { AdminAdjustPointsResultSchema, AdminAdjustPointsSchema } from '../../../shared/contracts/points.ts';
import { addRoute } from '../../http/route.ts';
import { adjustPoints } from '../../services/ledger.ts';

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
}
