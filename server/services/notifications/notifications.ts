import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { userNotifications } from '../../db/schema/notifications.ts';
import { noteNotified } from './unread-events.ts';

/**
 * Tells a user something happened (docs/economy.md#notifications). The text is a pair of message
 * keys with parameters, rendered in the reader's language by the client. `dedupeKey` names the
 * event, so a replayed webhook or a retried job notifies once. Runs in the caller's transaction when
 * `db` is one, so a notification exists exactly when what it reports does. Inside
 * `announcingNotified` (unread-events.ts) the user's open streams get the new count once that
 * work has succeeded.
 */
export type NewNotification = {
  userId: string;
  kind: 'checkin' | 'redeem' | 'invite' | 'points' | 'payment' | 'plan' | 'broadcast' | 'prompt';
  titleKey: string;
  bodyKey: string;
  params?: Record<string, string | number>;
  /** A path inside the app a click opens (for example /setting), or nothing. */
  link?: string;
  dedupeKey: string;
};

export async function notify(db: Db, n: NewNotification): Promise<void> {
  const added = await db
    .insert(userNotifications)
    .values({
      id: randomUUID(),
      userId: n.userId,
      kind: n.kind,
      titleKey: n.titleKey,
      bodyKey: n.bodyKey,
      params: JSON.stringify(n.params ?? {}),
      link: n.link ?? '',
      dedupeKey: n.dedupeKey,
    })
    .onConflictDoNothing({ target: userNotifications.dedupeKey })
    .returning({ id: userNotifications.id });
  // A replay adds nothing, and changes no count.
  if (added.length > 0) noteNotified(n.userId);
}
