import { vi } from 'vitest';

/**
 * jsdom's postMessage delivers events without `source` and `origin` (not implemented there), and the
 * bridge and page accept only messages from their own window and origin. This gives this window's
 * postMessage the browser's behaviour for a same-window message: asynchronous, cloned, with this
 * window as source and its origin. Restored by vi.restoreAllMocks().
 */
export function deliverSameWindowMessages(win: Window = window): void {
  vi.spyOn(win, 'postMessage').mockImplementation(((message: unknown, targetOrigin: string) => {
    if (targetOrigin !== '*' && targetOrigin !== win.location.origin) return;
    const data = structuredClone(message);
    setTimeout(() => win.dispatchEvent(new MessageEvent('message', { data, origin: win.location.origin, source: win })), 0);
  }) as typeof win.postMessage);
}

/** A message as another frame or origin would deliver it to this window. */
export function deliverForeignMessage(data: unknown, init: { origin?: string; source?: MessageEventSource | null } = {}): void {
  window.dispatchEvent(new MessageEvent('message', { data, origin: init.origin ?? window.location.origin, source: init.source ?? null }));
}

/** Every message posted to this window, as the listeners received it. */
export function recordWindowMessages(): { messages: unknown[]; stop: () => void } {
  const messages: unknown[] = [];
  const listener = (event: MessageEvent) => messages.push(event.data);
  window.addEventListener('message', listener);
  return { messages, stop: () => window.removeEventListener('message', listener) };
}

/**
 * Resolves once every message posted to this window before the call has been delivered: messages
 * arrive in the order they were posted, so a sentinel posted now arrives after all of them.
 */
export function allPostedMessagesDelivered(win: Window = window): Promise<void> {
  const sentinel = { type: 'test-sentinel', id: Math.random() };
  return new Promise((resolve) => {
    const listener = (event: MessageEvent) => {
      if ((event.data as { id?: number } | null)?.id !== sentinel.id) return;
      win.removeEventListener('message', listener);
      resolve();
    };
    win.addEventListener('message', listener);
    win.postMessage(sentinel, win.location.origin);
  });
}
