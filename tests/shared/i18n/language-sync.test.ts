import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExtensionMessageType } from '../../../shared/contracts/extension.ts';
import type { UserSetting } from '../../../shared/contracts/user.ts';
import { currentLanguage, initI18n, setLanguage } from '../../../shared/i18n/i18n.ts';
import { languagePersisted } from '../../../shared/i18n/language.ts';
import { startLanguageSync } from '../../../shared/i18n/language-sync.ts';
import { PageBridgeError, type PageBridge } from '../../../shared/messaging/page-bridge.ts';
import { installStorage, loadPersisted } from '../../../shared/storage/active.ts';
import { createWebStorage } from '../../../shared/storage/web.ts';

/** The extension as the page sees it through the bridge: it keeps the user config the background keeps. */
function fakeExtension(config: UserSetting | null, ready = true) {
  const sent: UserSetting[] = [];
  const bridge: PageBridge = {
    ready: async () => ready,
    request: (async (type: ExtensionMessageType, data: unknown) => {
      if (type === 'getCachedUserConfig') return config;
      if (type === 'webUpdatesUserSetting') {
        const { setting } = data as { setting: UserSetting };
        sent.push(setting);
        config = { ...config, ...setting };
        return null;
      }
      throw new PageBridgeError('unknownType', type);
    }) as PageBridge['request'],
    onLoginState: () => () => {},
    dispose() {},
  };
  return { bridge, sent };
}

describe('language sync between the web app and the extension', () => {
  let stop: (() => void) | undefined;
  beforeEach(async () => {
    localStorage.clear();
    installStorage(createWebStorage());
    await initI18n(['en-US']);
  });
  afterEach(() => stop?.());

  it("takes the extension's choice at start, without sending it back", async () => {
    const ext = fakeExtension({ language: 'zh' });
    const sync = startLanguageSync(ext.bridge);
    stop = sync;
    await sync.started;
    expect(currentLanguage()).toBe('zh');
    expect(await loadPersisted(languagePersisted)).toBe('zh');
    expect(ext.sent).toEqual([]);
  });

  it('sends a choice made on the page to the extension', async () => {
    const ext = fakeExtension({ language: 'en' });
    const sync = startLanguageSync(ext.bridge);
    stop = sync;
    await sync.started;
    await setLanguage('zh');
    await vi.waitUntil(() => ext.sent.length === 1);
    expect(ext.sent).toEqual([{ language: 'zh' }]);
  });

  it("gives the page's earlier choice to an extension that has none", async () => {
    await setLanguage('zh');
    const ext = fakeExtension(null);
    stop = startLanguageSync(ext.bridge);
    await vi.waitUntil(() => ext.sent.length === 1);
    expect(ext.sent).toEqual([{ language: 'zh' }]);
  });

  it("keeps the page's language when no extension answers", async () => {
    await setLanguage('zh');
    const ext = fakeExtension({ language: 'en' }, false);
    const sync = startLanguageSync(ext.bridge, 10);
    stop = sync;
    await sync.started;
    expect(currentLanguage()).toBe('zh');
  });
});
