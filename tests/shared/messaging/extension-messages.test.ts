import { QueryClient } from '@tanstack/react-query';
import { ContentScriptContext } from 'wxt/utils/content-script-context';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchPromptPluginUpdates } from '../../../components/app-shell/prompt-plugin-sync.ts';
import { handleExtensionMessage, wireMessages, type MessageSender } from '../../../entrypoints/background/messages.ts';
import { wireServer } from '../../../entrypoints/background/server.ts';
import bridgeScript from '../../../entrypoints/bridge.content.ts';
import { integralValuePersisted, tokenPersisted, userInfoPersisted } from '../../../shared/atoms/auth.ts';
import { promptPluginVersionPersisted, userConfigPersisted } from '../../../shared/atoms/user-config.ts';
import type { LoginState } from '../../../shared/contracts/extension.ts';
import { languagePersisted } from '../../../shared/i18n/language.ts';
import type { UserInfo } from '../../../shared/contracts/user.ts';
import { createPageBridge, type PageBridge } from '../../../shared/messaging/page-bridge.ts';
import { serverUrlPersisted } from '../../../shared/platform/server-url.ts';
import { installStorage, writePersisted } from '../../../shared/storage/active.ts';
import { createExtensionStorage } from '../../../shared/storage/extension.ts';
import { sendEnvelope, startTestServer, type TestServer } from '../../helpers/http-server.ts';
import { allPostedMessagesDelivered, deliverSameWindowMessages, recordWindowMessages } from './window-messages.ts';

const user: UserInfo = { userId: 'u1', userName: 'Ada', email: 'ada@example.com', role: 'user', vipOrder: null };

/** The jsdom page is http://localhost:3000/, the build's default server. */
const PAGE_ORIGIN = window.location.origin;

/** What Chrome reports for the bridge content script in the top frame of a tab of `origin`. */
function bridgeSender(origin: string = PAGE_ORIGIN, extra: Partial<MessageSender> = {}): MessageSender {
  return {
    id: fakeBrowser.runtime.id,
    tab: { id: 11, windowId: 7, index: 0, active: true } as chrome.tabs.Tab,
    frameId: 0,
    url: `${origin}/chat/123`,
    origin,
    ...extra,
  };
}

/** Stored values as the extension storage holds them ({v, value}). */
async function stored(key: string): Promise<unknown> {
  return (await fakeBrowser.storage.local.get(key))[key];
}
const envelope = (value: unknown) => ({ v: 1, value });

/** Chrome's dispatch: listeners get the message, the sender and a sendResponse (the fake types two arguments). */
const dispatchRuntimeMessage = fakeBrowser.runtime.onMessage.trigger as (
  message: unknown,
  sender: MessageSender,
  sendResponse: (response: unknown) => void,
) => Promise<unknown[]>;

const stops: (() => void)[] = [];
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer((_req, res) => sendEnvelope(res, { Code: 10000, Data: null }));
});
afterAll(() => server.close());

beforeEach(() => {
  fakeBrowser.reset();
  server.requests.length = 0;
  installStorage(createExtensionStorage());
  vi.spyOn(fakeBrowser.runtime, 'setUninstallURL').mockResolvedValue(undefined);
  // The uninstall address names the build's version (the test browser has no manifest of its own).
  vi.spyOn(fakeBrowser.runtime, 'getManifest').mockReturnValue({ manifest_version: 3, name: 'Tandem', version: '0.1.0' });
});
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  delete (fakeBrowser as { sidePanel?: unknown }).sidePanel;
  vi.restoreAllMocks();
});

/** The background as its index.ts wires it (storage installed in beforeEach). */
function startBackground(): void {
  stops.push(wireServer(), wireMessages());
}

describe('background message handlers', () => {
  beforeEach(startBackground);

  it('syncLoginState from the bridge writes the login to extension storage; getLoginToken reads it', async () => {
    expect(await handleExtensionMessage('getLoginToken', undefined, bridgeSender())).toEqual({ ok: true, result: null });
    const state: LoginState = { token: 'tok-1', userInfo: user };
    expect(await handleExtensionMessage('syncLoginState', state, bridgeSender())).toEqual({ ok: true, result: null });
    expect(await stored(tokenPersisted.key)).toEqual(envelope('tok-1'));
    expect(await stored(userInfoPersisted.key)).toEqual(envelope(user));
    expect(await handleExtensionMessage('getLoginToken', undefined, bridgeSender())).toEqual({
      ok: true,
      result: { token: 'tok-1', userInfo: user },
    });
  });

  it('keeps the stored user when the same login arrives without one, and logs out on token null', async () => {
    await handleExtensionMessage('syncLoginState', { token: 'tok-1', userInfo: user }, bridgeSender());
    await handleExtensionMessage('syncLoginState', { token: 'tok-1', userInfo: null }, bridgeSender());
    expect(await stored(userInfoPersisted.key)).toEqual(envelope(user));
    await handleExtensionMessage('webUpdatesUserSetting', { setting: { language: 'zh' } }, bridgeSender());

    await handleExtensionMessage('syncLoginState', { token: null, userInfo: null }, bridgeSender());
    expect(await stored(tokenPersisted.key)).toBeUndefined();
    expect(await stored(userInfoPersisted.key)).toBeUndefined();
    // Per-user caches go with the login.
    expect(await stored(userConfigPersisted.key)).toBeUndefined();
  });

  it('logout revokes the old token on the server, then clears the login', async () => {
    await fakeBrowser.storage.local.set({
      [serverUrlPersisted.key]: envelope(server.url),
      [tokenPersisted.key]: envelope('tok-old'),
      [userInfoPersisted.key]: envelope(user),
      [integralValuePersisted.key]: envelope(50),
    });
    const sender = bridgeSender(server.url);
    expect(await handleExtensionMessage('logout', undefined, sender)).toEqual({ ok: true, result: null });
    const logout = server.requests.find((r) => r.url === '/api/User/Logout');
    expect(logout?.method).toBe('POST');
    expect(logout?.headers.authorization).toBe('Bearer tok-old');
    expect(await stored(tokenPersisted.key)).toBeUndefined();
    expect(await stored(userInfoPersisted.key)).toBeUndefined();
    expect(await stored(integralValuePersisted.key)).toBeUndefined();
    expect(await handleExtensionMessage('getLoginToken', undefined, sender)).toEqual({ ok: true, result: null });
  });

  it('answers with logins made in other extension contexts after its first read', async () => {
    await fakeBrowser.storage.local.set({ [serverUrlPersisted.key]: envelope(server.url) });
    const sync = () => handleExtensionMessage('syncLoginState', { token: 'tok-1', userInfo: user }, bridgeSender(server.url));
    await vi.waitFor(async () => expect(await sync()).toEqual({ ok: true, result: null }));
    expect(await handleExtensionMessage('getLoginToken', undefined, bridgeSender(server.url))).toMatchObject({ result: { token: 'tok-1' } });
    // The side panel logs in as someone else: another context, straight to storage.
    await fakeBrowser.storage.local.set({ [tokenPersisted.key]: envelope('tok-side-panel'), [userInfoPersisted.key]: envelope(null) });
    await vi.waitFor(async () =>
      expect(await handleExtensionMessage('getLoginToken', undefined, bridgeSender(server.url))).toEqual({
        ok: true,
        result: { token: 'tok-side-panel', userInfo: null },
      }),
    );
    await handleExtensionMessage('logout', undefined, bridgeSender(server.url));
    expect(server.requests.find((r) => r.url === '/api/User/Logout')?.headers.authorization).toBe('Bearer tok-side-panel');
  });

  it('logout clears the login even when the server cannot be reached', async () => {
    const down = await startTestServer();
    const downUrl = down.url;
    await down.close();
    await fakeBrowser.storage.local.set({ [serverUrlPersisted.key]: envelope(downUrl), [tokenPersisted.key]: envelope('tok') });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await handleExtensionMessage('logout', undefined, bridgeSender(downUrl))).toEqual({ ok: true, result: null });
    expect(await stored(tokenPersisted.key)).toBeUndefined();
  });

  it('refuses senders other than the bridge on the configured server', async () => {
    const refusals: MessageSender[] = [
      bridgeSender('https://evil.example'),
      bridgeSender('http://localhost:3001'),
      bridgeSender(PAGE_ORIGIN, { id: 'another-extension' }),
      bridgeSender(PAGE_ORIGIN, { tab: undefined }),
      bridgeSender(PAGE_ORIGIN, { frameId: 3 }),
      bridgeSender(PAGE_ORIGIN, { origin: 'null' }),
      bridgeSender(PAGE_ORIGIN, { url: 'https://evil.example/' }),
      {},
    ];
    for (const sender of refusals) {
      const reply = await handleExtensionMessage('syncLoginState', { token: 'stolen', userInfo: null }, sender);
      expect(reply).toMatchObject({ ok: false, error: { code: 'forbiddenSender' } });
      expect(await handleExtensionMessage('getLoginToken', undefined, sender)).toMatchObject({ ok: false });
    }
    expect(await stored(tokenPersisted.key)).toBeUndefined();
  });

  it('follows the server chosen in the settings', async () => {
    await fakeBrowser.storage.local.set({ [serverUrlPersisted.key]: envelope('https://tandem.example') });
    await vi.waitFor(() => expect(fakeBrowser.runtime.setUninstallURL).toHaveBeenLastCalledWith('https://tandem.example/feedback?v=0.1.0&browser=chrome'));
    expect(await handleExtensionMessage('getLoginToken', undefined, bridgeSender())).toMatchObject({
      ok: false,
      error: { code: 'forbiddenSender' },
    });
    expect(await handleExtensionMessage('getLoginToken', undefined, bridgeSender('https://tandem.example'))).toEqual({
      ok: true,
      result: null,
    });
  });

  it('sets the uninstall URL to the feedback page of the default server', async () => {
    await vi.waitFor(() => expect(fakeBrowser.runtime.setUninstallURL).toHaveBeenCalledWith(`${PAGE_ORIGIN}/feedback?v=0.1.0&browser=chrome`));
  });

  it('refuses payloads that fail validation and unknown types', async () => {
    const bad: [string, unknown][] = [
      ['syncLoginState', { token: 5, userInfo: null }],
      ['syncLoginState', { token: 'tok' }],
      ['syncLoginState', { token: 'tok', userInfo: null, admin: true }],
      ['syncLoginState', { token: 'tok', userInfo: { userId: 'u1' } }],
      ['syncLoginState', { token: 'x'.repeat(5000), userInfo: null }],
      ['webUpdatesUserSetting', { setting: { language: 'fr' } }],
      ['webUpdatesUserSetting', { language: 'en' }],
      ['getLoginToken', { please: true }],
    ];
    for (const [type, data] of bad) {
      expect(await handleExtensionMessage(type, data, bridgeSender())).toMatchObject({ ok: false, error: { code: 'badPayload' } });
    }
    expect(await handleExtensionMessage('__proto__', undefined, bridgeSender())).toMatchObject({ ok: false, error: { code: 'unknownType' } });
    expect(await stored(tokenPersisted.key)).toBeUndefined();
    expect(await stored(userConfigPersisted.key)).toBeUndefined();
  });

  it('stores the user setting and answers it back', async () => {
    expect(await handleExtensionMessage('getCachedUserConfig', undefined, bridgeSender())).toEqual({ ok: true, result: null });
    const setting = { language: 'zh' as const, sendShortcut: 'ctrlEnter' as const, personalization: { occupation: 'pilot' } };
    expect(await handleExtensionMessage('webUpdatesUserSetting', { setting }, bridgeSender())).toEqual({ ok: true, result: null });
    expect(await stored(userConfigPersisted.key)).toEqual(envelope(setting));
    expect(await handleExtensionMessage('getCachedUserConfig', undefined, bridgeSender())).toEqual({ ok: true, result: setting });
  });

  it("takes the web app's language as the extension's, merges partial settings, and answers its own later choice", async () => {
    await handleExtensionMessage('webUpdatesUserSetting', { setting: { sendShortcut: 'ctrlEnter' } }, bridgeSender());
    expect(await stored(languagePersisted.key)).toBeUndefined();
    await handleExtensionMessage('webUpdatesUserSetting', { setting: { language: 'zh' } }, bridgeSender());
    expect(await stored(languagePersisted.key)).toEqual(envelope('zh'));
    expect(await stored(userConfigPersisted.key)).toEqual(envelope({ sendShortcut: 'ctrlEnter', language: 'zh' }));
    // The user switches the extension to English in its own settings: the web app is told so.
    await writePersisted(languagePersisted, 'en');
    expect(await handleExtensionMessage('getCachedUserConfig', undefined, bridgeSender())).toEqual({
      ok: true,
      result: { sendShortcut: 'ctrlEnter', language: 'en' },
    });
  });

  it('updatePromptPlugin bumps the version that pages refetch prompt and plugin lists on', async () => {
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    stops.push(watchPromptPluginUpdates(queryClient));
    await handleExtensionMessage('updatePromptPlugin', undefined, bridgeSender());
    await handleExtensionMessage('updatePromptPlugin', undefined, bridgeSender());
    expect(await stored(promptPluginVersionPersisted.key)).toEqual(envelope(2));
    await vi.waitFor(() => expect(invalidate).toHaveBeenCalledTimes(2));
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['prompt-plugin'] });
  });

  it('openSidePanel opens the panel of the sender window, and reports failure as a value', async () => {
    const open = vi.fn().mockResolvedValue(undefined);
    (fakeBrowser as { sidePanel?: unknown }).sidePanel = { open };
    expect(await handleExtensionMessage('openSidePanel', undefined, bridgeSender())).toEqual({ ok: true, result: { opened: true } });
    expect(open).toHaveBeenCalledWith({ windowId: 7 });

    open.mockRejectedValue(new Error('`sidePanel.open()` may only be called in response to a user gesture.'));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await handleExtensionMessage('openSidePanel', undefined, bridgeSender())).toEqual({ ok: true, result: { opened: false } });
  });

  it('answers through the runtime messaging the bridge uses', async () => {
    // Chrome calls the listeners with the sender and a sendResponse; the library answers through it.
    const reply = await new Promise((resolve) => {
      const message = { id: 1, type: 'syncLoginState', data: { token: 'via-runtime', userInfo: null }, timestamp: Date.now() };
      void dispatchRuntimeMessage(message, bridgeSender(), resolve);
    });
    expect(reply).toEqual({ res: { ok: true, result: null } });
    expect(await stored(tokenPersisted.key)).toEqual(envelope('via-runtime'));
  });
});

describe('bridge content script', () => {
  let page: PageBridge;
  let ctx: ContentScriptContext;

  /**
   * chrome.runtime.sendMessage from the content script reaches the background's listeners with the
   * sender Chrome would report for this page (the fake browser's own sendMessage has no sender).
   */
  function routeRuntimeMessages(sender: MessageSender = bridgeSender()) {
    // The fake browser's lastError is a permanent { message: '' }; Chrome sets it only on failure.
    vi.spyOn(fakeBrowser.runtime, 'lastError', 'get').mockReturnValue(undefined);
    vi.spyOn(fakeBrowser.runtime, 'sendMessage').mockImplementation(((message: unknown, callback?: (response: unknown) => void) => {
      let answered = false;
      const sendResponse = (response: unknown) => {
        answered = true;
        callback?.(response);
      };
      void dispatchRuntimeMessage(message, sender, sendResponse).then((results) => {
        if (!answered && !results.includes(true)) callback?.(undefined);
      });
    }) as never);
  }

  beforeEach(() => {
    deliverSameWindowMessages();
    delete document.documentElement.dataset.tandemBridge;
    startBackground();
    routeRuntimeMessages();
    page = createPageBridge();
  });
  afterEach(() => {
    page.dispose();
    ctx?.notifyInvalidated();
  });

  function startBridge() {
    ctx = new ContentScriptContext('bridge');
    void bridgeScript.main(ctx);
  }

  it('runs at document start on the build server host only', () => {
    expect(bridgeScript.matches).toEqual(['http://localhost/*']);
    expect(bridgeScript.runAt).toBe('document_start');
  });

  it('announces itself and answers pings', async () => {
    const recorded = recordWindowMessages();
    stops.push(recorded.stop);
    startBridge();
    expect(await page.ready(1000)).toBe(true);
    expect(document.documentElement.dataset.tandemBridge).toBe('1');
    expect(recorded.messages).toContainEqual({ source: 'tandem-bridge', type: 'ready' });
  });

  it('relays requests to the background and posts the answers back', async () => {
    startBridge();
    expect(await page.ready(1000)).toBe(true);
    await expect(page.request('getLoginToken', undefined)).resolves.toBeNull();
    await expect(page.request('syncLoginState', { token: 'tok-page', userInfo: user })).resolves.toBeNull();
    expect(await stored(tokenPersisted.key)).toEqual(envelope('tok-page'));
    await expect(page.request('getLoginToken', undefined)).resolves.toEqual({ token: 'tok-page', userInfo: user });
    // Nothing listens on the page's origin in this test: the revoke fails, the logout still happens.
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(page.request('logout', undefined)).resolves.toBeNull();
    expect(await stored(tokenPersisted.key)).toBeUndefined();
  });

  it('passes refusals on as errors: bad payloads, unknown types', async () => {
    startBridge();
    await page.ready(1000);
    await expect(page.request('syncLoginState', { token: 7 } as never)).rejects.toMatchObject({ code: 'badPayload' });
    await expect(page.request('nope' as never, undefined as never, { timeoutMs: 500 })).rejects.toMatchObject({ code: 'unknownType' });
  });

  it('tells the page when the extension logs in or out', async () => {
    startBridge();
    await page.ready(1000);
    const states: LoginState[] = [];
    page.onLoginState((s) => states.push(s));
    await fakeBrowser.storage.local.set({ [userInfoPersisted.key]: envelope(user) });
    await fakeBrowser.storage.local.set({ [tokenPersisted.key]: envelope('tok-side-panel') });
    await vi.waitFor(() => expect(states).toEqual([{ token: 'tok-side-panel', userInfo: user }]));
    // Same token again (user info refreshed): no news for the page.
    await fakeBrowser.storage.local.set({ [tokenPersisted.key]: envelope('tok-side-panel') });
    await fakeBrowser.storage.local.remove(tokenPersisted.key);
    await vi.waitFor(() => expect(states).toHaveLength(2));
    expect(states[1]).toEqual({ token: null, userInfo: null });
  });

  it('stays silent on an origin that is not the configured server', async () => {
    await fakeBrowser.storage.local.set({ [serverUrlPersisted.key]: envelope('https://tandem.example') });
    const recorded = recordWindowMessages();
    stops.push(recorded.stop);
    startBridge();
    expect(await page.ready(300)).toBe(false);
    expect(document.documentElement.dataset.tandemBridge).toBeUndefined();
    await fakeBrowser.storage.local.set({ [tokenPersisted.key]: envelope('secret') });
    await expect(page.request('getLoginToken', undefined)).rejects.toMatchObject({ code: 'unavailable' });
    await allPostedMessagesDelivered();
    expect(JSON.stringify(recorded.messages)).not.toContain('secret');
  });

  it('the background refuses a bridge whose tab is on another origin', async () => {
    vi.mocked(fakeBrowser.runtime.sendMessage).mockRestore();
    routeRuntimeMessages(bridgeSender('https://evil.example'));
    startBridge();
    await page.ready(1000);
    await expect(page.request('getLoginToken', undefined)).rejects.toMatchObject({ code: 'forbiddenSender' });
  });

  it('stops relaying once its context is invalidated', async () => {
    startBridge();
    await page.ready(1000);
    ctx.notifyInvalidated();
    expect(document.documentElement.dataset.tandemBridge).toBeUndefined();
    await expect(page.request('getLoginToken', undefined, { timeoutMs: 200 })).rejects.toMatchObject({ code: 'timeout' });
  });
});
