import { beforeEach, describe, expect, it, vi } from 'vitest';
import { startUnreadRelay } from '../../../components/notifications/unread-relay.ts';
import { reportUnreadCount } from '../../../shared/atoms/notifications.ts';
import type { PageBridge } from '../../../shared/messaging/page-bridge.ts';
import { installStorage } from '../../../shared/storage/active.ts';
import { createWebStorage } from '../../../shared/storage/web.ts';

function fakeBridge(ready: boolean) {
  const request = vi.fn().mockResolvedValue(null);
  const bridge = { ready: async () => ready, request, onLoginState: () => () => {}, dispose: () => {} } as unknown as PageBridge;
  return { bridge, request };
}

beforeEach(() => {
  localStorage.clear();
  installStorage(createWebStorage());
});

describe('startUnreadRelay (web app)', () => {
  it("tells the extension when the page's unread count changes, without the count, once per change", async () => {
    const { bridge, request } = fakeBridge(true);
    const stop = startUnreadRelay(bridge);
    // Once the bridge has answered and the stored count is read.
    await new Promise((resolve) => setTimeout(resolve, 10));
    await reportUnreadCount(2);
    expect(request).toHaveBeenCalledWith('notificationsChanged', undefined);
    const sent = request.mock.calls.length;
    expect(sent).toBe(1);
    await reportUnreadCount(2);
    expect(request).toHaveBeenCalledTimes(sent);
    await reportUnreadCount(0);
    expect(request).toHaveBeenCalledTimes(sent + 1);
    stop();
    await reportUnreadCount(4);
    expect(request).toHaveBeenCalledTimes(sent + 1);
  });

  it('does nothing without the extension', async () => {
    const { bridge, request } = fakeBridge(false);
    startUnreadRelay(bridge);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await reportUnreadCount(3);
    expect(request).not.toHaveBeenCalled();
  });
});
