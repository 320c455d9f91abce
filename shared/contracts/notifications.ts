import { z } from 'zod';
import { IdSchema, PageQuerySchema, pagedSchema } from './common.ts';

/** Notifications and the operators' broadcasts (docs/economy.md#notifications). */

/** A query flag: `true`/`1` turn it on; absent, `false` or `0` leave it off. */
const QueryFlag = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((v) => v === 'true' || v === '1');

export const NotificationListQuerySchema = PageQuerySchema.extend({ unreadOnly: QueryFlag });
export type NotificationListQuery = z.infer<typeof NotificationListQuerySchema>;

/**
 * One notification. The text is a pair of message keys with their parameters, rendered by the client
 * in the reader's language; parameters are shown as text, never as HTML.
 */
export const NotificationSchema = z.object({
  id: z.string(),
  /** checkin, redeem, invite, points, payment, plan, broadcast. */
  kind: z.string(),
  titleKey: z.string(),
  bodyKey: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  /** A path inside the app a click opens, or ''. */
  link: z.string(),
  read: z.boolean(),
  createTime: z.string(),
});
export type UserNotification = z.infer<typeof NotificationSchema>;

/** A page of notifications, newest first, with the caller's unread count beside it. */
export const NotificationPageSchema = pagedSchema(NotificationSchema).extend({ unread: z.number().int() });
export type NotificationPage = z.infer<typeof NotificationPageSchema>;

export const UnreadCountSchema = z.object({ unread: z.number().int() });

/**
 * One event of the caller's notification stream (GET /api/UserNotification/Events): the unread
 * count, sent when the stream opens, when it changes, and again as the heartbeat.
 */
export const UnreadEventSchema = z.object({ unread: z.number().int().min(0) });
export type UnreadEvent = z.infer<typeof UnreadEventSchema>;

export const ReadNotificationsSchema = z.object({ ids: z.array(IdSchema).min(1).max(100) });
export type ReadNotifications = z.infer<typeof ReadNotificationsSchema>;

/**
 * A path inside the app: one leading '/', not '//' or '/\' (which browsers read as another site), no
 * spaces or backslashes.
 */
const AppPath = z.string().trim().max(500).regex(/^\/(?![/\\])[^\s\\]*$/, 'notificationLinkInvalid');

export const BroadcastAudienceSchema = z.enum(['all', 'level', 'user']);

/** A broadcast's text in one language. */
export const BroadcastTextSchema = z.object({
  title: z.string().trim().min(1).max(100),
  body: z.string().trim().min(1).max(2000),
});
export type BroadcastText = z.infer<typeof BroadcastTextSchema>;

/** A translation has both its title and its body (a missing one would show the other language's). */
const TranslatedTextSchema = z.object({
  title: z.string({ error: 'broadcastTranslationIncomplete' }).trim().min(1, 'broadcastTranslationIncomplete').max(100),
  body: z.string({ error: 'broadcastTranslationIncomplete' }).trim().min(1, 'broadcastTranslationIncomplete').max(2000),
});

/**
 * A broadcast's text in the languages other than its default one (`title`/`body`), by language:
 * a reader whose language has one gets it, anyone else the default text. Languages are the app's
 * (LanguageSchema in common.ts, less 'en': the default text is the English one).
 */
export const BroadcastTranslationsSchema = z.object({ zh: TranslatedTextSchema.optional() }).strict();
export type BroadcastTranslations = z.infer<typeof BroadcastTranslationsSchema>;

/**
 * An operator's message to all users, to the users of one plan level (0 = free), or to one user.
 * `requestId` is chosen once per intended broadcast: sending it again adds nothing.
 */
export const BroadcastSchema = z
  .object({
    ...BroadcastTextSchema.shape,
    translations: BroadcastTranslationsSchema.optional(),
    link: AppPath.optional(),
    audience: BroadcastAudienceSchema,
    level: z.number().int().min(0).max(3).optional(),
    userId: IdSchema.optional(),
    requestId: z.string().trim().min(8).max(64),
  })
  .superRefine((b, issue) => {
    if (b.audience === 'level' && b.level === undefined) issue.addIssue({ code: 'custom', path: ['level'], message: 'broadcastLevelRequired' });
    if (b.audience === 'user' && b.userId === undefined) issue.addIssue({ code: 'custom', path: ['userId'], message: 'broadcastUserRequired' });
  });
export type Broadcast = z.infer<typeof BroadcastSchema>;

/** How many notifications the broadcast added (0 when its requestId was sent before). */
export const BroadcastResultSchema = z.object({ sent: z.number().int() });
