import type { FastifyInstance } from 'fastify';
import { NotificationListQuerySchema, NotificationPageSchema, ReadNotificationsSchema, UnreadCountSchema } from '../../shared/contracts/notifications.ts';
import { addRoute } from '../http/route.ts';
import { listNotifications, markAllRead, markRead, unreadCount } from '../services/notifications/notification-inbox.ts';

/** The caller's notifications (docs/economy.md#notifications). Ids of other users' are ignored, not refused. */
export function registerNotificationRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/UserNotification/GetList',
    auth: 'user',
    summary: "The caller's notifications, newest first (optionally unread only), with the unread count beside the page",
    query: NotificationListQuerySchema,
    data: NotificationPageSchema,
    handler: ({ ctx, user, query }) => listNotifications(ctx.db, user.id, query),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/UserNotification/GetUnreadCount',
    auth: 'user',
    summary: "How many of the caller's notifications are unread",
    data: UnreadCountSchema,
    handler: async ({ ctx, user }) => ({ unread: await unreadCount(ctx.db, user.id) }),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/UserNotification/Read',
    auth: 'user',
    summary: "Marks the caller's notifications among ids (1 to 100) read; answers the unread count left",
    body: ReadNotificationsSchema,
    data: UnreadCountSchema,
    handler: ({ ctx, user, body }) => markRead(ctx.db, user.id, body.ids),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/UserNotification/ReadAll',
    auth: 'user',
    summary: "Marks all the caller's notifications read",
    data: UnreadCountSchema,
    handler: ({ ctx, user }) => markAllRead(ctx.db, user.id),
  });
}
