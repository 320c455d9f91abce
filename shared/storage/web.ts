import type { StorageAdapter } from './adapter.ts';

/**
 * localStorage as a StorageAdapter. Values are stored as JSON text. The browser's `storage` event
 * only reaches other documents, so writes made here notify this document's watchers directly: both
 * adapters then behave alike (extension storage reports local writes too).
 */
export function createWebStorage(area: Storage = window.localStorage, target: Window = window): StorageAdapter {
  const watchers = new Map<string, Set<(value: unknown) => void>>();

  const parse = (text: string | null): unknown => {
    if (text === null) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      // Written by something else (an older build, a person in devtools): treated as absent.
      return undefined;
    }
  };

  const notify = (key: string, value: unknown) => {
    for (const cb of [...(watchers.get(key) ?? [])]) cb(value);
  };

  const onStorage = (event: StorageEvent) => {
    // key is null when another document called clear(): every watched key may have changed.
    if (event.storageArea !== area) return;
    if (event.key === null) for (const key of watchers.keys()) notify(key, parse(area.getItem(key)));
    else if (watchers.has(event.key)) notify(event.key, parse(event.newValue));
  };

  return {
    async get(key) {
      return parse(area.getItem(key));
    },
    async set(key, value) {
      area.setItem(key, JSON.stringify(value));
      notify(key, value);
    },
    async remove(key) {
      area.removeItem(key);
      notify(key, undefined);
    },
    watch(key, cb) {
      if (watchers.size === 0) target.addEventListener('storage', onStorage);
      let set = watchers.get(key);
      if (!set) watchers.set(key, (set = new Set()));
      set.add(cb);
      return () => {
        set.delete(cb);
        if (set.size === 0) watchers.delete(key);
        if (watchers.size === 0) target.removeEventListener('storage', onStorage);
      };
    },
  };
}
