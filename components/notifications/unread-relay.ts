import { unreadNotificationsPersisted } from '../../shared/atoms/notifications.ts';
import type { PageBridge } from '../../shared/messaging/page-bridge.ts';
import { loadPersisted, watchPersisted } from '../../shared/storage/active.ts';

/** How long the web app waits for the extension's bridge before it gives up relaying. */
export const UNREAD_RELAY_READY_TIMEOUT_MS = 3_000;

/**
 * On the web app: when the page's unread notification count changes (the bell stores each new
 * count), the extension is told (notificationsChanged), and its background fetches the count
 * itself for the toolbar badge. The page sends no number: the background asks the server with the
 * extension's own login. Extension pages need none of this: they share the background's storage.
 * Returns the stop function.
 */
export function startUnreadRelay(bridge: PageBridge, readyTimeoutMs = UNREAD_RELAY_READY_TIMEOUT_MS): () => void {
  let stopped = false;
  let stopWatching: (() => void) | undefined;
  void (async () => {
    if (!(await bridge.ready(readyTimeoutMs)) || stopped) return;
    let last = await loadPersisted(unreadNotificationsPersisted);
    if (stopped) return;
    stopWatching = watchPersisted(unreadNotificationsPersisted, (count) => {
      if (count === last || count === null) return;
      last = count;
      bridge.request('notificationsChanged', undefined).catch(() => {
        // The extension went away (reloaded, removed): its badge catches up on its own refresh.
      });
    });
  })();
  return () => {
    stopped = true;
    stopWatching?.();
  };
}
