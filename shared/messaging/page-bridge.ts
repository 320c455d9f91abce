import {
  BRIDGE_DATASET_FLAG,
  BRIDGE_MESSAGE_SOURCE,
  BRIDGE_PING_INTERVAL_MS,
  BridgeLoginStateSchema,
  BridgeReadySchema,
  BridgeReplySchema,
  ExtensionMessageResultSchemas,
  PAGE_MESSAGE_SOURCE,
  type ExtensionErrorCode,
  type ExtensionMessageData,
  type ExtensionMessageResult,
  type ExtensionMessageType,
  type LoginState,
} from '../contracts/extension.ts';

/** How long a request waits for the extension (the logout message may wait on the server for 5 s). */
export const PAGE_BRIDGE_REQUEST_TIMEOUT_MS = 10_000;

/** A request the extension refused, failed, or did not answer in time. */
export class PageBridgeError extends Error {
  override readonly name = 'PageBridgeError';
  constructor(
    readonly code: ExtensionErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The web page's side of the bridge content script (entrypoints/bridge.content.ts). */
export interface PageBridge {
  /** True once the bridge has answered; pings it every 50 ms until then, false after `timeoutMs`. */
  ready(timeoutMs: number): Promise<boolean>;
  /** Sends one of the extension messages; rejects with a PageBridgeError. Messages without data take undefined. */
  request<K extends ExtensionMessageType>(
    type: K,
    data: ExtensionMessageData<K>,
    options?: { timeoutMs?: number },
  ): Promise<ExtensionMessageResult<K>>;
  /** Calls `cb` whenever the extension logs in or out. Returns the unsubscribe. */
  onLoginState(cb: (state: LoginState) => void): () => void;
  /** Stops listening; pending requests reject as unavailable. */
  dispose(): void;
}

interface Pending {
  type: ExtensionMessageType;
  resolve: (value: unknown) => void;
  reject: (error: PageBridgeError) => void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * Talks to the bridge with window messages of this window and origin only. Uses no extension API
 * (the page has none), so any module may import it; nothing runs until it is called.
 */
export function createPageBridge(win: Window = window): PageBridge {
  const origin = win.location.origin;
  const pending = new Map<string, Pending>();
  const loginListeners = new Set<(state: LoginState) => void>();
  const readyWaiters = new Set<(ready: boolean) => void>();
  const idPrefix = Math.random().toString(36).slice(2);
  let sequence = 0;
  let isReady = false;
  let disposed = false;

  const post = (message: object) => win.postMessage(message, origin);

  const onMessage = (event: MessageEvent) => {
    if (event.source !== win || event.origin !== origin) return;
    const data: unknown = event.data;
    if (typeof data !== 'object' || data === null || (data as { source?: unknown }).source !== BRIDGE_MESSAGE_SOURCE) return;

    if (BridgeReadySchema.safeParse(data).success) {
      isReady = true;
      for (const wake of [...readyWaiters]) wake(true);
      return;
    }
    const login = BridgeLoginStateSchema.safeParse(data);
    if (login.success) {
      for (const cb of [...loginListeners]) cb(login.data.data);
      return;
    }
    const reply = BridgeReplySchema.safeParse(data);
    if (!reply.success) return;
    const waiting = pending.get(reply.data.id);
    if (!waiting) return;
    pending.delete(reply.data.id);
    clearTimeout(waiting.timer);
    if (!reply.data.ok) {
      waiting.reject(new PageBridgeError(reply.data.error.code, reply.data.error.message));
      return;
    }
    // The answer comes through the page's own window: checked like any other input.
    const result = ExtensionMessageResultSchemas[waiting.type].safeParse(reply.data.result);
    if (result.success) waiting.resolve(result.data);
    else waiting.reject(new PageBridgeError('failed', `Unexpected answer to ${waiting.type}`));
  };
  win.addEventListener('message', onMessage);

  return {
    ready(timeoutMs) {
      if (isReady || win.document.documentElement.dataset[BRIDGE_DATASET_FLAG] === '1') {
        isReady = true;
        return Promise.resolve(true);
      }
      if (disposed) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        const finish = (value: boolean) => {
          clearInterval(poll);
          clearTimeout(timer);
          readyWaiters.delete(wake);
          resolve(value);
        };
        const wake = (value: boolean) => finish(value);
        readyWaiters.add(wake);
        const ping = () => post({ source: PAGE_MESSAGE_SOURCE, type: 'ping' });
        const poll = setInterval(ping, BRIDGE_PING_INTERVAL_MS);
        const timer = setTimeout(() => finish(false), timeoutMs);
        ping();
      });
    },

    request(type, data, options = {}) {
      if (disposed) return Promise.reject(new PageBridgeError('unavailable', 'The bridge was closed'));
      const id = `${idPrefix}-${++sequence}`;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new PageBridgeError('timeout', `The extension did not answer ${type}`));
        }, options.timeoutMs ?? PAGE_BRIDGE_REQUEST_TIMEOUT_MS);
        pending.set(id, { type, resolve: resolve as (value: unknown) => void, reject, timer });
        post({ source: PAGE_MESSAGE_SOURCE, id, type, data });
      });
    },

    onLoginState(cb) {
      loginListeners.add(cb);
      return () => loginListeners.delete(cb);
    },

    dispose() {
      disposed = true;
      win.removeEventListener('message', onMessage);
      for (const wake of [...readyWaiters]) wake(false);
      for (const [id, waiting] of pending) {
        clearTimeout(waiting.timer);
        waiting.reject(new PageBridgeError('unavailable', 'The bridge was closed'));
        pending.delete(id);
      }
      loginListeners.clear();
    },
  };
}
