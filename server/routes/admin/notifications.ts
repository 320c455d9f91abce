import type { FastifyInstance } from 'fastify';
import { BroadcastResultSchema, BroadcastSchema } from '../../../shared/contracts/notifications.ts';
import { addRoute } from '../../http/route.ts';
import { broadcast } from '../../services/notifications/notification-inbox.ts';
import { announceUnread } from '../../services/notifications/unread-events.ts';

export function registerAdminNotificationRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'POST',
    url: '/api/admin/UserNotification/Broadcast',
    auth: 'admin',
    audit: { target: 'notification', id: ({ body }) => (body.audience === 'user' ? body.userId : body.audience === 'level' ? `level:${body.level}` : 'all') },
    summary:
      'Sends a notification (plain-text title and body, optionally also in Chinese under translations.zh, optional in-app link) to all active users, to those of one plan level (0 = free), or to one user; once per requestId. Each reader sees the text of their language, else the default one. Answers how many were added; open notification streams get the new count',
    body: BroadcastSchema,
    data: BroadcastResultSchema,
    handler: async ({ ctx, body }) => {
      const result = await broadcast(ctx.db, body);
      if (result.sent > 0) announceUnread(ctx, body.audience === 'user' && body.userId ? [body.userId] : 'all');
      return result;
    },
  });
}
