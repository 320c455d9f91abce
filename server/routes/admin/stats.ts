import type { FastifyInstance } from 'fastify';
import { DashboardSchema, StatsQuerySchema } from '../../../shared/contracts/admin-stats.ts';
import { addRoute } from '../../http/route.ts';
import { getDashboard } from '../../services/admin/stats.ts';

/** The operator's dashboard figures (docs/admin-stats.md), aggregated by the database. */
export function registerAdminStatsRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/admin/Statistic/GetDashboard',
    auth: 'admin',
    summary:
      'Dashboard figures over a date range in the operator\'s time zone: active users, sign-ups, messages and tokens per day and model, errors and failovers per deployment, time to first token, points spent and granted, revenue, active subscriptions',
    query: StatsQuerySchema,
    data: DashboardSchema,
    handler: ({ ctx, query }) => getDashboard(ctx, query),
  });
}
