/**
 * Key/value storage as every persisted piece of client state sees it. Values are anything
 * JSON can carry; `undefined` means "absent". Two implementations: web.ts (localStorage) and
 * extension.ts (extension storage, shared by the side panel, popup, app page and background).
 */
export interface StorageAdapter {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  remove(key: string): Promise<void>;
  /**
   * Calls `cb` with the new value (undefined when removed) whenever the key changes, in this
   * context or another one. Returns the unsubscribe.
   */
  watch(key: string, cb: (value: unknown) => void): () => void;
}
