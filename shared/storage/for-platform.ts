import type { Platform } from '../platform/platform.ts';
import type { StorageAdapter } from './adapter.ts';
import { createExtensionStorage } from './extension.ts';
import { createWebStorage } from './web.ts';

/**
 * Extension pages share the extension's storage (so the side panel, popup and app page see one
 * login); the web page keeps its state in localStorage.
 */
export function storageFor(platform: Pick<Platform, 'isExtension'>): StorageAdapter {
  return platform.isExtension ? createExtensionStorage() : createWebStorage();
}
