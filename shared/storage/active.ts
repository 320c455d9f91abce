import type { StorageAdapter } from './adapter.ts';
import { createWebStorage } from './web.ts';
import { decodePersisted, encodePersisted, type Persisted } from './persisted.ts';

/**
 * The one storage this JavaScript context uses, chosen at start-up (extension storage inside the
 * extension, localStorage on the web), with a cache of decoded values so that Jotai atoms and the
 * request helper can read synchronously.
 */
let adapter: StorageAdapter | undefined;
const cache = new Map<string, unknown>();
const loading = new Map<string, Promise<unknown>>();
const listeners = new Map<string, Set<(value: unknown) => void>>();
const adapterUnwatch = new Map<string, () => void>();
/** Declarations seen so far, so a watch can decode what another context wrote. */
const declarations = new Map<string, Persisted<unknown>>();

function remember<T>(declaration: Persisted<T>): void {
  declarations.set(declaration.key, declaration as Persisted<unknown>);
}

/** The web page's storage unless an entrypoint installed another one. */
function current(): StorageAdapter {
  adapter ??= createWebStorage();
  return adapter;
}

/**
 * Switches this context to `next` (called once by an entrypoint before anything reads). Cached
 * values and watches belong to the previous adapter, so they are dropped and re-established.
 */
export function installStorage(next: StorageAdapter): void {
  for (const unwatch of adapterUnwatch.values()) unwatch();
  adapterUnwatch.clear();
  cache.clear();
  loading.clear();
  adapter = next;
  for (const key of listeners.keys()) watchAdapter(key);
}

function publish(key: string, value: unknown): void {
  cache.set(key, value);
  for (const cb of [...(listeners.get(key) ?? [])]) cb(value);
}

function watchAdapter(key: string): void {
  const declaration = declarations.get(key);
  if (!declaration || adapterUnwatch.has(key)) return;
  adapterUnwatch.set(
    key,
    current().watch(key, (raw) => publish(key, decodePersisted(declaration, raw))),
  );
}

/** Reads the stored value into the cache (once; later calls share the first read). */
export function loadPersisted<T>(declaration: Persisted<T>): Promise<T> {
  remember(declaration);
  if (cache.has(declaration.key)) return Promise.resolve(cache.get(declaration.key) as T);
  let pending = loading.get(declaration.key);
  if (!pending) {
    const from = current();
    const read: Promise<unknown> = from.get(declaration.key).then(
      (raw) => {
        const value = decodePersisted(declaration, raw);
        const fresh = adapter === from;
        // A write (or a newer adapter) may have landed while reading: that value wins.
        if (fresh && !cache.has(declaration.key)) publish(declaration.key, value);
        if (loading.get(declaration.key) === read) loading.delete(declaration.key);
        return fresh && cache.has(declaration.key) ? cache.get(declaration.key) : value;
      },
      (error: unknown) => {
        if (loading.get(declaration.key) === read) loading.delete(declaration.key);
        console.error(`storage: reading ${declaration.key} failed`, error);
        return declaration.fallback;
      },
    );
    loading.set(declaration.key, read);
    pending = read;
  }
  return pending as Promise<T>;
}

/** The cached value, or the fallback while the first read is under way (it is started here). */
export function peekPersisted<T>(declaration: Persisted<T>): T {
  if (cache.has(declaration.key)) return cache.get(declaration.key) as T;
  void loadPersisted(declaration);
  return declaration.fallback;
}

/** The value when its first read has finished (known without waiting), else undefined. */
export function peekLoaded<T>(declaration: Persisted<T>): { value: T } | undefined {
  return cache.has(declaration.key) ? { value: cache.get(declaration.key) as T } : undefined;
}

export async function writePersisted<T>(declaration: Persisted<T>, value: T): Promise<void> {
  remember(declaration);
  publish(declaration.key, value);
  await current().set(declaration.key, encodePersisted(declaration, value));
}

export async function clearPersisted<T>(declaration: Persisted<T>): Promise<void> {
  remember(declaration);
  publish(declaration.key, declaration.fallback);
  await current().remove(declaration.key);
}

/**
 * Calls `cb` with every new decoded value, whichever context wrote it. The first read, if still
 * pending, is reported too, so a watcher that started on the fallback catches up.
 */
export function watchPersisted<T>(declaration: Persisted<T>, cb: (value: T) => void): () => void {
  remember(declaration);
  let set = listeners.get(declaration.key);
  if (!set) listeners.set(declaration.key, (set = new Set()));
  const listener = cb as (value: unknown) => void;
  set.add(listener);
  watchAdapter(declaration.key);
  void loadPersisted(declaration);
  return () => {
    set.delete(listener);
    if (set.size > 0) return;
    listeners.delete(declaration.key);
    adapterUnwatch.get(declaration.key)?.();
    adapterUnwatch.delete(declaration.key);
  };
}
