import { userConfigPersisted } from '../../../shared/atoms/user-config.ts';
import { beforeEach, describe, expect, it } from 'vitest';
import { createStore } from 'jotai';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { z } from 'zod';
import {
  authActionAtom,
  integralValueAtom,
  isLoggedInAtom,
  systemConfigAtom,
  tokenAtom,
  tokenPersisted,
  userInfoAtom,
  userInfoPersisted,
} from '../../../shared/atoms/auth.ts';
import type { UserInfo } from '../../../shared/contracts/user.ts';
import type { StorageAdapter } from '../../../shared/storage/adapter.ts';
import { installStorage, loadPersisted, peekPersisted } from '../../../shared/storage/active.ts';
import { createExtensionStorage } from '../../../shared/storage/extension.ts';
import { decodePersisted, definePersisted, encodePersisted } from '../../../shared/storage/persisted.ts';
import { createWebStorage } from '../../../shared/storage/web.ts';

const user: UserInfo = { userId: 'u1', userName: 'Ada', email: 'ada@example.com', role: 'user', vipOrder: null };

/** What another tab's write looks like to this document. */
function writeFromOtherTab(key: string, value: unknown) {
  const text = value === undefined ? null : JSON.stringify(value);
  if (text === null) localStorage.removeItem(key);
  else localStorage.setItem(key, text);
  window.dispatchEvent(new StorageEvent('storage', { key, newValue: text, storageArea: localStorage }));
}

describe('decodePersisted', () => {
  const count = definePersisted({ key: 'count', version: 2, schema: z.number().int().min(0), fallback: 7 });

  it('returns a stored value of the current version that passes the schema', () => {
    expect(decodePersisted(count, encodePersisted(count, 3))).toBe(3);
  });

  it('falls back on anything else', () => {
    for (const raw of [undefined, null, 3, 'x', { value: 3 }, { v: 1, value: 3 }, { v: 2, value: -1 }, { v: 2, value: '3' }]) {
      expect(decodePersisted(count, raw)).toBe(7);
    }
  });
});

/** The contract both adapters keep. */
function adapterContract(name: string, make: () => StorageAdapter, foreignWrite: (key: string, value: unknown) => Promise<void> | void) {
  describe(name, () => {
    it('stores, reads and removes JSON values', async () => {
      const s = make();
      expect(await s.get('a')).toBeUndefined();
      await s.set('a', { n: [1, '二'] });
      expect(await s.get('a')).toEqual({ n: [1, '二'] });
      await s.remove('a');
      expect(await s.get('a')).toBeUndefined();
    });

    it('reports changes of the watched key from this context and others, until unsubscribed', async () => {
      const s = make();
      const seen: unknown[] = [];
      const stop = s.watch('w', (v) => seen.push(v));
      await s.set('w', 1);
      await s.set('other', 2);
      await foreignWrite('w', 3);
      await s.remove('w');
      await expect.poll(() => seen).toEqual([1, 3, undefined]);
      stop();
      // A watcher still subscribed is told of the next writes in the same dispatch the stopped one would be.
      const witness: unknown[] = [];
      s.watch('w', (v) => witness.push(v));
      await s.set('w', 4);
      await foreignWrite('w', 5);
      await expect.poll(() => witness).toEqual([4, 5]);
      expect(seen).toEqual([1, 3, undefined]);
    });
  });
}

beforeEach(() => {
  localStorage.clear();
  fakeBrowser.reset();
});

adapterContract('web storage', () => createWebStorage(), writeFromOtherTab);
// The other context of the extension writes to the same storage.local.
adapterContract('extension storage', () => createExtensionStorage(), (key, value) => fakeBrowser.storage.local.set({ [key]: value }));

describe('web storage', () => {
  it('treats text that is not JSON as absent', async () => {
    localStorage.setItem('bad', '{not json');
    expect(await createWebStorage().get('bad')).toBeUndefined();
  });
});

describe('persisted auth state', () => {
  beforeEach(() => installStorage(createWebStorage()));

  it('reads back what was stored, and falls back on invalid stored values', async () => {
    localStorage.setItem(tokenPersisted.key, JSON.stringify({ v: 1, value: 42 }));
    localStorage.setItem(userInfoPersisted.key, JSON.stringify({ v: 1, value: { userId: 'u1' } }));
    expect(await loadPersisted(tokenPersisted)).toBeNull();
    expect(await loadPersisted(userInfoPersisted)).toBeNull();

    localStorage.setItem(tokenPersisted.key, JSON.stringify({ v: 1, value: 'tok' }));
    localStorage.setItem(userInfoPersisted.key, JSON.stringify({ v: 1, value: user }));
    installStorage(createWebStorage());
    expect(await loadPersisted(tokenPersisted)).toBe('tok');
    expect(await loadPersisted(userInfoPersisted)).toEqual(user);
  });

  it('logs in and out through the action atom; logout keeps the system settings', async () => {
    const store = createStore();
    const unsub = [tokenAtom, userInfoAtom, integralValueAtom, systemConfigAtom].map((a) => store.sub(a, () => {}));
    await store.set(authActionAtom, { type: 'systemConfig', settings: [{ settingKey: 'vip_url', settingValue: 'https://x' }] });
    await store.set(authActionAtom, { type: 'login', token: 'tok-1', userInfo: user });
    await store.set(authActionAtom, { type: 'integralValue', integralValue: 120 });
    expect(store.get(isLoggedInAtom)).toBe(true);
    expect(store.get(userInfoAtom)).toEqual(user);
    expect(JSON.parse(localStorage.getItem(tokenPersisted.key)!)).toEqual({ v: 1, value: 'tok-1' });
    localStorage.setItem(userConfigPersisted.key, JSON.stringify({ v: 1, value: { language: 'zh' } }));

    await store.set(authActionAtom, { type: 'logout' });
    // The user's settings cache is the logged-out user's too.
    expect(localStorage.getItem(userConfigPersisted.key)).toBeNull();
    expect(store.get(tokenAtom)).toBeNull();
    expect(store.get(userInfoAtom)).toBeNull();
    expect(store.get(integralValueAtom)).toBe(0);
    expect(store.get(systemConfigAtom)).toEqual([{ settingKey: 'vip_url', settingValue: 'https://x' }]);
    expect(peekPersisted(tokenPersisted)).toBeNull();
    unsub.forEach((u) => u());
  });

  it('starts from the stored value and follows writes from another tab', async () => {
    localStorage.setItem(tokenPersisted.key, JSON.stringify({ v: 1, value: 'stored' }));
    installStorage(createWebStorage());
    await loadPersisted(tokenPersisted);
    const store = createStore();
    // Loaded before first use: the first read is already the stored token (no logged-out flash).
    expect(store.get(tokenAtom)).toBe('stored');
    const stop = store.sub(tokenAtom, () => {});
    writeFromOtherTab(tokenPersisted.key, { v: 1, value: 'from-other-tab' });
    expect(store.get(tokenAtom)).toBe('from-other-tab');
    writeFromOtherTab(tokenPersisted.key, { v: 1, value: '' });
    expect(store.get(tokenAtom)).toBeNull();
    stop();
  });

  it('in the extension, follows a login made in another extension page', async () => {
    installStorage(createExtensionStorage());
    const store = createStore();
    const stop = store.sub(tokenAtom, () => {});
    expect(store.get(tokenAtom)).toBeNull();
    await fakeBrowser.storage.local.set({ [tokenPersisted.key]: { v: 1, value: 'popup-login' } });
    await expect.poll(() => store.get(tokenAtom)).toBe('popup-login');
    stop();
  });
});
