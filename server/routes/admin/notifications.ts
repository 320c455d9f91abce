import type { FastifyInstance } from 'fastify';
import { BroadcastResultSchema, BroadcastSchema } from '../../../shared/contracts/notifications.ts';
import { addRoute } from '../../http/route.ts';
import { broadcast } from '../../services/notifications/notification-inbox.ts';

export function registerAdminNotificationRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'POST',
    url: '/api/admin/UserNotification/Broadcast',
    auth: 'admin',
    audit: { target: 'notification', id: ({ body }) => (body.audience === 'user' ? body.userId : body.audience === 'level' ? `level:${body.level}` : 'all') },
    summary:
      'Sends a notification (plain-text title and body, optional in-app link) to all active users, to those of one plan level (0 = free), or to one user; once per requestId. Answers how many were added',
    body: BroadcastSchema,
    data: BroadcastResultSchema,
    handler: ({ ctx, body }) => broadcast(ctx.db, body),
  });
}
