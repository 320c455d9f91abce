import { browser } from 'wxt/browser';
import {
  PENDING_ACTION_KEY,
  PENDING_ACTION_TTL_MS,
  PendingActionEnvelopeSchema,
  type PendingAction,
  type PendingActionEnvelope,
  type PreparedMessage,
} from '../contracts/selection-action.ts';

/**
 * The hand-off from the background to the side panel (shared/contracts/selection-action.ts).
 *
 * Why storage.session and not a runtime message: the panel may not exist yet when the background
 * gets the click (sidePanel.open only starts loading it), and a message to a page that is still
 * loading is lost. A stored action is there whenever the panel starts, and a panel already open
 * sees it arrive through storage.onChanged. storage.session lives in memory, is cleared when the
 * browser closes, and is not readable by content scripts (their default access level).
 *
 * Exactly once: one action waits at a time (a newer click replaces an older unclaimed one), the
 * panel of the action's window claims it by removing it, and remembers the ids it ran. A tool's
 * action may come with its message ready (`send`): the first script of a panel opened for it sends
 * that and claims it (waitingMessage, claimPendingAction) before the panel's app watches.
 */

let sequence = 0;

/** Background: leaves `action` for the side panel of `windowId`, with its message when it is ready to send. */
export async function queuePendingAction(windowId: number, action: PendingAction, send?: PreparedMessage): Promise<PendingActionEnvelope> {
  const envelope: PendingActionEnvelope = {
    id: `${Date.now().toString(36)}-${++sequence}-${Math.random().toString(36).slice(2, 8)}`,
    windowId,
    createdAt: Date.now(),
    action,
    ...(send ? { send } : {}),
  };
  await browser.storage.session.set({ [PENDING_ACTION_KEY]: envelope });
  return envelope;
}

/** This page's window (undefined when it cannot be told: then every action is taken as this window's). */
const currentWindowId = (): Promise<number | undefined> =>
  browser.windows
    .getCurrent()
    .then((w) => w.id)
    .catch(() => undefined);

const isOld = (envelope: { createdAt: number }) => Date.now() - envelope.createdAt > PENDING_ACTION_TTL_MS;

/** Claims the action `id`: removed only if it is still the one waiting (a newer click may have replaced it meanwhile). */
export async function claimPendingAction(id: string): Promise<void> {
  const current = (await browser.storage.session.get(PENDING_ACTION_KEY))[PENDING_ACTION_KEY] as { id?: unknown } | undefined;
  if (current?.id === id) await browser.storage.session.remove(PENDING_ACTION_KEY);
}

/**
 * The side panel's first script (entrypoints/sidepanel-early.ts): the action waiting for this panel's
 * window when its message is ready to send, else null. Read without zod, which that script does not
 * load: only what it acts on is checked here; the panel's app checks the envelope as a whole
 * (PendingActionEnvelopeSchema), and the server the message.
 */
export async function waitingMessage(): Promise<{ id: string; envelope: unknown; send: PreparedMessage } | null> {
  const [found, windowId] = await Promise.all([browser.storage.session.get(PENDING_ACTION_KEY), currentWindowId()]);
  const envelope = found[PENDING_ACTION_KEY] as { id?: unknown; windowId?: unknown; createdAt?: unknown; send?: Partial<PreparedMessage> } | undefined;
  const send = envelope?.send;
  if (typeof envelope?.id !== 'string' || typeof envelope.createdAt !== 'number' || isOld({ createdAt: envelope.createdAt })) return null;
  if (windowId !== undefined && envelope.windowId !== windowId) return null;
  if (typeof send?.url !== 'string' || typeof send.headers !== 'object' || typeof send.body !== 'object' || !send.headers || !send.body) return null;
  return { id: envelope.id, envelope, send: send as PreparedMessage };
}

/**
 * Side panel: calls `onAction` with every action left for this panel's window, the one waiting at
 * start included, each once. `stop` unsubscribes; `ready` settles once the one waiting at start (if
 * any) has been claimed and handed to `onAction`, so the panel can start with it in its first screen.
 * `claimedBefore`: the id of the action the page's first script claimed (null: none); the one waiting
 * is read once that is settled, and that action is not run again here.
 */
export function watchPendingActions(
  onAction: (action: PendingAction, envelope: PendingActionEnvelope) => void,
  options: { claimedBefore?: Promise<string | null> } = {},
): { stop: () => void; ready: Promise<void> } {
  const seen = new Set<string>();
  let stopped = false;
  const windowIdPromise = currentWindowId();

  const consider = async (raw: unknown) => {
    const parsed = PendingActionEnvelopeSchema.safeParse(raw);
    if (!parsed.success || seen.has(parsed.data.id)) return;
    const envelope = parsed.data;
    const windowId = await windowIdPromise;
    if (stopped || (windowId !== undefined && envelope.windowId !== windowId) || seen.has(envelope.id)) return;
    seen.add(envelope.id);
    await claimPendingAction(envelope.id);
    if (isOld(envelope)) return;
    onAction(envelope.action, envelope);
  };

  const listener = (changes: Record<string, { newValue?: unknown }>, area: string) => {
    if (area !== 'session' || !(PENDING_ACTION_KEY in changes)) return;
    const next = changes[PENDING_ACTION_KEY].newValue;
    if (next !== undefined) void consider(next);
  };
  browser.storage.onChanged.addListener(listener);
  const claimed = (options.claimedBefore ?? Promise.resolve(null)).catch(() => null);
  const ready = claimed
    .then((id) => {
      if (id !== null) seen.add(id);
      return browser.storage.session.get(PENDING_ACTION_KEY);
    })
    .then((found) => consider(found[PENDING_ACTION_KEY]))
    .catch((error: unknown) => console.warn('pending action: reading the waiting one failed', error));
  return {
    ready,
    stop() {
      stopped = true;
      browser.storage.onChanged.removeListener(listener);
    },
  };
}
