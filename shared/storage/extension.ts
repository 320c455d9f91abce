import { browser } from 'wxt/browser';
import type { StorageAdapter } from './adapter.ts';

/**
 * The extension's `storage.local` as a StorageAdapter: one store for the side panel, popup, app
 * page and background. `onChanged` fires in every context, the writing one included. Nothing here
 * runs at import time, so the web page may load this module without an extension around it.
 */
export function createExtensionStorage(): StorageAdapter {
  return {
    async get(key) {
      const found = await browser.storage.local.get(key);
      return found[key];
    },
    async set(key, value) {
      await browser.storage.local.set({ [key]: value });
    },
    async remove(key) {
      await browser.storage.local.remove(key);
    },
    watch(key, cb) {
      const listener = (changes: Record<string, { newValue?: unknown }>, areaName: string) => {
        if (areaName !== 'local' || !(key in changes)) return;
        // A removal has no newValue (some implementations report null): both mean absent.
        cb(changes[key].newValue ?? undefined);
      };
      browser.storage.onChanged.addListener(listener);
      return () => browser.storage.onChanged.removeListener(listener);
    },
  };
}
