import type { FastifyInstance } from 'fastify';
import { InviteStatisticsQuerySchema, InviteStatisticsSchema } from '../../../shared/contracts/admin-money.ts';
import { addRoute } from '../../http/route.ts';
import { inviteStatistics } from '../../services/admin/money.ts';

/** Invite statistics for operators (docs/economy.md#invites): who brings people in, and what it cost in points. */
export function registerAdminInviteRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/admin/InviteCode/GetStatistics',
    auth: 'admin',
    summary:
      'Invite statistics over a date range: sign-ups with an inviter, invite credits and their points (totals, per UTC day), and the top inviters with their e-mails',
    query: InviteStatisticsQuerySchema,
    data: InviteStatisticsSchema,
    handler: ({ ctx, query }) => inviteStatistics(ctx, query),
  });
}
