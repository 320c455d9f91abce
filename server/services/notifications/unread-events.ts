import { AsyncLocalStorage } from 'node:async_hooks';
import { and, count, inArray, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AppContext } from '../../context.ts';
import type { EventStream } from '../../core/event-stream.ts';
import { AppError } from '../../core/errors.ts';
import { userNotifications } from '../../db/schema/notifications.ts';
import { unreadCount } from './notification-inbox.ts';

/**
 * The live unread count (GET /api/UserNotification/Events, docs/api.md#notification-events): each
 * open stream gets its user's unread count when it opens, whenever it changes, and again as a
 * heartbeat.
 *
 * A change is announced on the bus (Redis, PostgreSQL LISTEN/NOTIFY, or in-process: services/system/bus.ts)
 * with the users it concerns, or "all" after a broadcast to many, and only once what changed is
 * committed: `announcingNotified` wraps a piece of work that may call `notify` (inside a
 * transaction or not) and announces the users notified after it succeeded. Every instance counts
 * again, in one statement, for those of its streams' users concerned, and sends a stream its count
 * only when it differs from the last one sent there. Announcements that arrive while a count runs
 * are gathered into the next one. A stream's first count is read before it opens (a failure is an
 * envelope), and counted again once it listens, for what changed in between.
 */

export const UNREAD_CHANNEL = 'notifications_unread';
/** Open streams per user and instance; one more is refused (10429) until one closes. */
export const MAX_STREAMS_PER_USER = 5;
/** The last count is sent again this often: proxies keep the connection, and the client knows it is alive. */
export const HEARTBEAT_MS = 25_000;
/** A stream ends after this long; the client opens a new one, which checks its login again. */
export const MAX_STREAM_MS = 30 * 60_000;
/** Users per bus message (a NOTIFY payload stays well under PostgreSQL's 8,000 bytes) and per count. */
const USERS_PER_MESSAGE = 100;
const USERS_PER_COUNT = 500;

const MessageSchema = z.union([z.object({ all: z.literal(true) }), z.object({ u: z.array(z.string().max(200)).max(USERS_PER_MESSAGE) })]);

type Stream = { userId: string; last: number | null; openedAt: number; send(unread: number): void; drop(): void };

type Registry = {
  byUser: Map<string, Set<Stream>>;
  /** Users to count again ('all': every user with a stream here), gathered while a count runs. */
  pending: Set<string> | 'all';
  counting: boolean;
};
const registries = new WeakMap<AppContext, Registry>();

const chunks = <T>(items: T[], size: number) => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** Tells every instance that these users' unread counts may have changed ('all': any user's). */
export function announceUnread(ctx: AppContext, users: Iterable<string> | 'all'): void {
  const messages = users === 'all' ? [{ all: true }] : chunks([...new Set(users)], USERS_PER_MESSAGE).map((u) => ({ u }));
  for (const message of messages) {
    ctx.bus.publish(UNREAD_CHANNEL, JSON.stringify(message)).catch((err: unknown) => ctx.log.warn({ err }, 'announcing unread counts over the bus failed'));
  }
}

/** The users `notify` wrote to within the current `announcingNotified`. */
const notified = new AsyncLocalStorage<Set<string>>();

/** Called by `notify`: the user is announced once the surrounding `announcingNotified` succeeds. */
export function noteNotified(userId: string): void {
  notified.getStore()?.add(userId);
}

/**
 * Runs `work` (a transaction that may notify users, or several notifies), then announces the users
 * it notified: after the commit, so a count taken then includes them. Nothing is announced when it
 * throws. Inside another `announcingNotified`, the outer one announces.
 */
export async function announcingNotified<T>(ctx: AppContext, work: () => Promise<T>): Promise<T> {
  if (notified.getStore()) return work();
  const users = new Set<string>();
  const result = await notified.run(users, work);
  if (users.size) announceUnread(ctx, users);
  return result;
}

/** Counts again for the pending users, then again while more came meanwhile; one count at a time. */
async function countPending(ctx: AppContext, registry: Registry): Promise<void> {
  if (registry.counting) return;
  registry.counting = true;
  try {
    while (registry.pending === 'all' || registry.pending.size > 0) {
      const wanted = registry.pending === 'all' ? [...registry.byUser.keys()] : [...registry.pending].filter((u) => registry.byUser.has(u));
      registry.pending = new Set();
      for (const users of chunks(wanted, USERS_PER_COUNT)) {
        const rows = await ctx.db
          .select({ userId: userNotifications.userId, n: count() })
          .from(userNotifications)
          .where(and(inArray(userNotifications.userId, users), isNull(userNotifications.readAt)))
          .groupBy(userNotifications.userId);
        const counts = new Map(rows.map((r) => [r.userId, Number(r.n)]));
        for (const userId of users) {
          const unread = counts.get(userId) ?? 0;
          for (const stream of registry.byUser.get(userId) ?? []) {
            if (stream.last !== unread) stream.send(unread);
          }
        }
      }
    }
  } catch (err) {
    // The next announcement (or the client's next stream) counts again.
    ctx.log.warn({ err }, 'counting unread notifications for open streams failed');
  } finally {
    registry.counting = false;
  }
}

function countAgain(ctx: AppContext, registry: Registry, users: string[] | 'all'): void {
  if (users === 'all') registry.pending = 'all';
  else if (registry.pending !== 'all') for (const u of users) registry.pending.add(u);
  void countPending(ctx, registry);
}

/**
 * Follows the bus for this instance's streams, beats their hearts and ends those that ran their
 * time. Returns the stop, which ends every stream (the clients open new ones elsewhere).
 */
export function startUnreadEvents(ctx: AppContext): () => void {
  const registry: Registry = { byUser: new Map(), pending: new Set(), counting: false };
  registries.set(ctx, registry);
  const off = ctx.bus.subscribe(UNREAD_CHANNEL, (payload) => {
    let parsed: z.infer<typeof MessageSchema> | null = null;
    try {
      const result = MessageSchema.safeParse(JSON.parse(payload));
      parsed = result.success ? result.data : null;
    } catch {
      parsed = null;
    }
    if (parsed) countAgain(ctx, registry, 'all' in parsed ? 'all' : parsed.u);
  });
  const heartbeat = setInterval(() => {
    const now = Date.now();
    for (const streams of registry.byUser.values()) {
      for (const stream of [...streams]) {
        if (now - stream.openedAt >= MAX_STREAM_MS) stream.drop();
        else if (stream.last !== null) stream.send(stream.last);
      }
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return () => {
    off();
    clearInterval(heartbeat);
    for (const streams of [...registry.byUser.values()]) for (const stream of [...streams]) stream.drop();
    registries.delete(ctx);
  };
}

/** How many streams the user has open on this instance. */
export function openUnreadStreams(ctx: AppContext, userId: string): number {
  return registries.get(ctx)?.byUser.get(userId)?.size ?? 0;
}

/**
 * The caller's stream: refused (an envelope, before the stream opens) beyond MAX_STREAMS_PER_USER,
 * while the server stops, or when the first count fails; then `data: {"unread":n}` events until the
 * client goes, the stream's time is up, or the server stops.
 */
export async function openUnreadStream(ctx: AppContext, out: EventStream, userId: string): Promise<void> {
  const full = () => new AppError(Codes.RateLimited, 'notificationStreamsLimit', { max: MAX_STREAMS_PER_USER });
  if (openUnreadStreams(ctx, userId) >= MAX_STREAMS_PER_USER) throw full();
  const first = await unreadCount(ctx.db, userId);
  const registry = registries.get(ctx);
  if (!registry) throw new AppError(Codes.ServerError, 'shuttingDown');
  const streams = registry.byUser.get(userId) ?? new Set<Stream>();
  if (streams.size >= MAX_STREAMS_PER_USER) throw full();
  registry.byUser.set(userId, streams);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    streams.delete(stream);
    if (streams.size === 0 && registry.byUser.get(userId) === streams) registry.byUser.delete(userId);
  };
  const stream: Stream = {
    userId,
    last: null,
    openedAt: Date.now(),
    send(unread) {
      stream.last = unread;
      out.send(`data: ${JSON.stringify({ unread })}\n\n`);
    },
    drop() {
      close();
      out.end();
    },
  };
  streams.add(stream);
  out.open();
  out.onClose(close);
  stream.send(first);
  // What changed since the first count was announced before this stream was listening.
  countAgain(ctx, registry, [userId]);
}
