import type { FastifyInstance } from 'fastify';
import {
  NotificationListQuerySchema,
  NotificationPageSchema,
  ReadNotificationsSchema,
  UnreadCountSchema,
  UnreadEventSchema,
} from '../../shared/contracts/notifications.ts';
import { deferredEventStream } from '../http/event-stream.ts';
import { addRoute, RAW } from '../http/route.ts';
import { listNotifications, markAllRead, markRead, unreadCount } from '../services/notifications/notification-inbox.ts';
import { announceUnread, HEARTBEAT_MS, MAX_STREAMS_PER_USER, openUnreadStream, startUnreadEvents } from '../services/notifications/unread-events.ts';

/** The caller's notifications (docs/economy.md#notifications). Ids of other users' are ignored, not refused. */
export function registerNotificationRoutes(app: FastifyInstance): void {
  let stopEvents: (() => void) | undefined;
  app.addHook('onReady', async () => {
    stopEvents = startUnreadEvents(app.ctx);
  });
  // Open streams end before the server closes its connections; their clients reconnect elsewhere.
  app.addHook('preClose', async () => stopEvents?.());

  addRoute(app, {
    method: 'GET',
    url: '/api/UserNotification/GetList',
    auth: 'user',
    summary:
      "The caller's notifications, newest first (optionally unread only), with the unread count beside the page; a broadcast's title and body in the request's language (Accept-Language) when the operator wrote one",
    query: NotificationListQuerySchema,
    data: NotificationPageSchema,
    handler: ({ ctx, user, query, lang }) => listNotifications(ctx.db, user.id, query, lang),
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
    method: 'GET',
    url: '/api/UserNotification/Events',
    auth: 'user',
    summary: `The caller's unread count, live: a text/event-stream of {"unread": n} events (at once, on every change, and every ${HEARTBEAT_MS / 1000} s as a heartbeat). At most ${MAX_STREAMS_PER_USER} open per user (10429 beyond)`,
    raw: {
      description: `text/event-stream: one \`data: {"unread": n}\` event when it opens, one whenever the count changes (a notification, a broadcast, a read on another surface), and the last count again every ${HEARTBEAT_MS / 1000} s. The stream ends after 30 minutes or when the server stops: open a new one. Refusals come before the stream as an envelope: not logged in (10402), more than ${MAX_STREAMS_PER_USER} streams of the caller open on this server (10429).`,
      content: { 'text/event-stream': UnreadEventSchema },
      endless: true,
    },
    handler: async ({ ctx, user, reply }) => {
      await openUnreadStream(ctx, deferredEventStream(reply), user.id);
      return RAW;
    },
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/UserNotification/Read',
    auth: 'user',
    summary: "Marks the caller's notifications among ids (1 to 100) read; answers the unread count left",
    body: ReadNotificationsSchema,
    data: UnreadCountSchema,
    handler: async ({ ctx, user, body }) => {
      const answer = await markRead(ctx.db, user.id, body.ids);
      // The caller's other surfaces (the side panel beside the web app) follow.
      announceUnread(ctx, [user.id]);
      return answer;
    },
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/UserNotification/ReadAll',
    auth: 'user',
    summary: "Marks all the caller's notifications read",
    data: UnreadCountSchema,
    handler: async ({ ctx, user }) => {
      const answer = await markAllRead(ctx.db, user.id);
      announceUnread(ctx, [user.id]);
      return answer;
    },
  });
}
