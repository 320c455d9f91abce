import { browser } from 'wxt/browser';
import { getUnreadCount } from '../../shared/api/notifications.ts';
import { tokenPersisted } from '../../shared/atoms/auth.ts';
import { unreadNotificationsPersisted } from '../../shared/atoms/notifications.ts';
import { clearPersisted, loadPersisted, watchPersisted, writePersisted } from '../../shared/storage/active.ts';
import { loadServerUrl } from './server.ts';
import { coalesced } from './coalesced.ts';

/** The alarm that refreshes the badge, and how often it fires. */
export const BADGE_ALARM = 'tandem-unread-badge';
export const BADGE_REFRESH_MINUTES = 5;
/** The badge's colour: the bell's red. */
export const BADGE_COLOR = '#FA5252';

/** What the toolbar badge says: nothing when signed out or nothing is unread, else the count, at most 99+. */
export function badgeText(unread: number | null, signedIn: boolean): string {
  if (!signedIn || unread === null || unread <= 0) return '';
  return unread > 99 ? '99+' : String(unread);
}

async function setBadge(text: string): Promise<void> {
  try {
    if (text) await browser.action.setBadgeBackgroundColor({ color: BADGE_COLOR });
    await browser.action.setBadgeText({ text });
  } catch (error) {
    console.warn('badge: setting the text failed', error);
  }
}

/** Shows the stored count (what the background or an extension page fetched last), if signed in. */
export async function applyBadge(): Promise<void> {
  const [token, unread] = await Promise.all([loadPersisted(tokenPersisted), loadPersisted(unreadNotificationsPersisted)]);
  await setBadge(badgeText(unread, token !== null));
}

/**
 * Fetches the count with the extension's login and stores it (the watch below shows it). Signed
 * out, nothing is asked of the server: the stored count goes and the badge is cleared.
 */
async function refreshOnce(): Promise<void> {
  // The API base is the chosen server's: wireServer applies it once this first read is in.
  await loadServerUrl();
  const token = await loadPersisted(tokenPersisted);
  if (token === null) {
    await clearPersisted(unreadNotificationsPersisted);
    await applyBadge();
    return;
  }
  try {
    const unread = await getUnreadCount();
    // The login may have changed while asking: that one's count is asked for anew.
    if ((await loadPersisted(tokenPersisted)) !== token) return;
    if ((await loadPersisted(unreadNotificationsPersisted)) !== unread) await writePersisted(unreadNotificationsPersisted, unread);
  } catch (error) {
    console.warn('badge: fetching the unread count failed', error);
  }
  await applyBadge();
}

/** Refreshes the badge; calls while one runs make one more run after it, not one each. */
export const refreshBadge: () => Promise<void> = coalesced(refreshOnce);

/**
 * The toolbar badge shows the unread notification count: refreshed when the worker starts, every
 * five minutes (an alarm, which outlives the worker; a timer when the alarms permission is missing,
 * where each restart of the worker refreshes at start instead), when the login changes, and when a
 * page changes the count: extension pages store it (followed here), the web app sends
 * notificationsChanged (messages.ts). Listeners are added in the worker's first turn.
 */
export function wireBadge(): () => void {
  const stops: (() => void)[] = [];
  const alarms = (browser as { alarms?: typeof browser.alarms }).alarms;
  if (alarms) {
    const onAlarm = (alarm: { name: string }) => {
      if (alarm.name === BADGE_ALARM) void refreshBadge();
    };
    alarms.onAlarm.addListener(onAlarm);
    stops.push(() => alarms.onAlarm.removeListener(onAlarm));
    // Created once: an alarm created again at each start of the worker would never come due.
    void Promise.resolve(alarms.get(BADGE_ALARM))
      .then(async (existing) => {
        if (!existing) await alarms.create(BADGE_ALARM, { periodInMinutes: BADGE_REFRESH_MINUTES });
      })
      .catch((error: unknown) => console.warn('badge: creating the alarm failed', error));
  } else {
    const timer = setInterval(() => void refreshBadge(), BADGE_REFRESH_MINUTES * 60_000);
    stops.push(() => clearInterval(timer));
  }
  let lastToken: string | null | undefined;
  stops.push(
    watchPersisted(tokenPersisted, (token) => {
      if (token === lastToken) return;
      lastToken = token;
      void refreshBadge();
    }),
    watchPersisted(unreadNotificationsPersisted, () => void applyBadge()),
  );
  void refreshBadge();
  return () => stops.forEach((stop) => stop());
}
