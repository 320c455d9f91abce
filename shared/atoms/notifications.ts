import { z } from 'zod';
import { loadPersisted, writePersisted } from '../storage/active.ts';
import { definePersisted } from '../storage/persisted.ts';

/**
 * The unread notification count a page last fetched (null: none fetched for this login). Inside the
 * extension it is extension storage, which the background follows for the toolbar badge
 * (entrypoints/background/badge.ts); on the web app, the page's entrypoint tells the extension it
 * changed (components/notifications/unread-relay.ts, message notificationsChanged).
 */
export const unreadNotificationsPersisted = definePersisted<number | null>({
  key: 'tandem.notifications.unread',
  version: 1,
  schema: z.number().int().min(0).nullable(),
  fallback: null,
});

/** Stores a fetched count, only when it differs from the stored one (a write is news to the badge). */
export async function reportUnreadCount(count: number): Promise<void> {
  if ((await loadPersisted(unreadNotificationsPersisted)) === count) return;
  await writePersisted(unreadNotificationsPersisted, count);
}
