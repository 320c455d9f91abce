import { fakeBrowser } from 'wxt/testing/fake-browser';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { BADGE_ALARM, BADGE_REFRESH_MINUTES, badgeText, refreshBadge, wireBadge } from '../../../entrypoints/background/badge.ts';
import { handleExtensionMessage, wireMessages, type MessageSender } from '../../../entrypoints/background/messages.ts';
import { wireServer } from '../../../entrypoints/background/server.ts';
import { tokenPersisted } from '../../../shared/atoms/auth.ts';
import { unreadNotificationsPersisted } from '../../../shared/atoms/notifications.ts';
import { serverUrlPersisted } from '../../../shared/platform/server-url.ts';
import { installStorage } from '../../../shared/storage/active.ts';
import { createExtensionStorage } from '../../../shared/storage/extension.ts';
import { sendEnvelope, startTestServer, type TestServer } from '../../helpers/http-server.ts';

describe('badgeText', () => {
  it('is empty at 0 and signed out, the count up to 99, then 99+', () => {
    expect(badgeText(0, true)).toBe('');
    expect(badgeText(null, true)).toBe('');
    expect(badgeText(5, true)).toBe('5');
    expect(badgeText(99, true)).toBe('99');
    expect(badgeText(120, true)).toBe('99+');
    expect(badgeText(5, false)).toBe('');
  });
});

/** The count the fake server answers. */
let unread = 0;
let server: TestServer;
const envelope = (value: unknown) => ({ v: 1, value });
const countCalls = () => server.requests.filter((r) => r.url === '/api/UserNotification/GetUnreadCount');
const badge = () => fakeBrowser.action.getBadgeText({});

beforeAll(async () => {
  server = await startTestServer((req, res) =>
    req.url === '/api/UserNotification/GetUnreadCount'
      ? sendEnvelope(res, { Code: 10000, Data: { unread } })
      : sendEnvelope(res, { Code: 10404, Msg: 'not found' }),
  );
});
afterAll(() => server.close());

const stops: (() => void)[] = [];
beforeEach(() => {
  fakeBrowser.reset();
  server.requests.length = 0;
  unread = 0;
  installStorage(createExtensionStorage());
  vi.spyOn(fakeBrowser.runtime, 'setUninstallURL').mockResolvedValue(undefined);
});
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  vi.restoreAllMocks();
});

/** The background as index.ts wires it, on storage holding `stored`. */
async function startBackground(stored: Record<string, unknown>): Promise<void> {
  await fakeBrowser.storage.local.set({ [serverUrlPersisted.key]: envelope(server.url), ...stored });
  stops.push(wireServer(), wireMessages(), wireBadge());
}

describe('the toolbar badge', () => {
  it('signed out: empty, and the server is not asked', async () => {
    await startBackground({});
    await refreshBadge();
    expect(await badge()).toBe('');
    expect(countCalls()).toHaveLength(0);
  });

  it('signed in: the unread count when the worker starts, with the login', async () => {
    unread = 5;
    await startBackground({ [tokenPersisted.key]: envelope('tok-1') });
    await vi.waitFor(async () => expect(await badge()).toBe('5'));
    expect(countCalls()[0].headers.authorization).toBe('Bearer tok-1');
    expect(await fakeBrowser.action.getBadgeBackgroundColor({})).toEqual([250, 82, 82, 255]);
  });

  it('follows the count an extension page stores, and clears when signed out', async () => {
    await startBackground({ [tokenPersisted.key]: envelope('tok-1') });
    await refreshBadge();
    expect(await badge()).toBe('');
    const calls = countCalls().length;

    // The side panel's bell fetched 120 and stored it: no call of the background's own.
    await fakeBrowser.storage.local.set({ [unreadNotificationsPersisted.key]: envelope(120) });
    await vi.waitFor(async () => expect(await badge()).toBe('99+'));
    expect(countCalls()).toHaveLength(calls);

    await fakeBrowser.storage.local.remove(tokenPersisted.key);
    await vi.waitFor(async () => expect(await badge()).toBe(''));
    await vi.waitFor(async () => expect((await fakeBrowser.storage.local.get(unreadNotificationsPersisted.key))[unreadNotificationsPersisted.key]).toBeUndefined());
    expect(countCalls()).toHaveLength(calls);
  });

  it('is refreshed every five minutes by an alarm, created once', async () => {
    await startBackground({ [tokenPersisted.key]: envelope('tok-1') });
    await vi.waitFor(async () => expect(await fakeBrowser.alarms.get(BADGE_ALARM)).toMatchObject({ periodInMinutes: BADGE_REFRESH_MINUTES }));
    const scheduled = (await fakeBrowser.alarms.get(BADGE_ALARM))!.scheduledTime;
    // A restarted worker finds the alarm and leaves its schedule alone.
    stops.push(wireBadge());
    await refreshBadge();
    expect((await fakeBrowser.alarms.get(BADGE_ALARM))!.scheduledTime).toBe(scheduled);

    unread = 3;
    await fakeBrowser.alarms.onAlarm.trigger({ name: BADGE_ALARM, scheduledTime: Date.now() });
    await vi.waitFor(async () => expect(await badge()).toBe('3'));
  });

  it('is refreshed when the web app says the count changed (notificationsChanged)', async () => {
    await startBackground({ [tokenPersisted.key]: envelope('tok-1') });
    await refreshBadge();
    unread = 7;
    const origin = new URL(server.url).origin;
    const sender: MessageSender = {
      id: fakeBrowser.runtime.id,
      tab: { id: 11, windowId: 7, index: 0, active: true } as chrome.tabs.Tab,
      frameId: 0,
      url: `${origin}/`,
      origin,
    };
    expect(await handleExtensionMessage('notificationsChanged', undefined, sender)).toEqual({ ok: true, result: null });
    expect(await badge()).toBe('7');
    // The page's data is no count: anything it sends is refused.
    expect(await handleExtensionMessage('notificationsChanged', { unread: 99 }, sender)).toMatchObject({ ok: false, error: { code: 'badPayload' } });
  });
});
