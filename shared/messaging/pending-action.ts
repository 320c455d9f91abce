import { browser } from 'wxt/browser';
import {
  PENDING_ACTION_KEY,
  PENDING_ACTION_TTL_MS,
  PendingActionEnvelopeSchema,
  type PendingAction,
  type PendingActionEnvelope,
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
 * panel of the action's window claims it by removing it, and remembers the ids it ran.
 */

let sequence = 0;

/** Background: leaves `action` for the side panel of `windowId`. */
export async function queuePendingAction(windowId: number, action: PendingAction): Promise<PendingActionEnvelope> {
  const envelope: PendingActionEnvelope = { id: `${Date.now().toString(36)}-${++sequence}-${Math.random().toString(36).slice(2, 8)}`, windowId, createdAt: Date.now(), action };
  await browser.storage.session.set({ [PENDING_ACTION_KEY]: envelope });
  return envelope;
}

/**
 * Side panel: calls `onAction` with every action left for this panel's window, the one waiting at
 * start included, each once. `stop` unsubscribes; `ready` settles once the one waiting at start (if
 * any) has been claimed and handed to `onAction`, so the panel can start with it in its first screen.
 */
export function watchPendingActions(onAction: (action: PendingAction, envelope: PendingActionEnvelope) => void): { stop: () => void; ready: Promise<void> } {
  const seen = new Set<string>();
  let stopped = false;
  const windowIdPromise: Promise<number | undefined> = browser.windows
    .getCurrent()
    .then((w) => w.id)
    .catch(() => undefined);

  const consider = async (raw: unknown) => {
    const parsed = PendingActionEnvelopeSchema.safeParse(raw);
    if (!parsed.success || seen.has(parsed.data.id)) return;
    const envelope = parsed.data;
    const windowId = await windowIdPromise;
    if (stopped || (windowId !== undefined && envelope.windowId !== windowId) || seen.has(envelope.id)) return;
    seen.add(envelope.id);
    // Claimed: removed only if it is still this one (a newer click may have replaced it meanwhile).
    const current = (await browser.storage.session.get(PENDING_ACTION_KEY))[PENDING_ACTION_KEY] as { id?: unknown } | undefined;
    if (current?.id === envelope.id) await browser.storage.session.remove(PENDING_ACTION_KEY);
    if (Date.now() - envelope.createdAt > PENDING_ACTION_TTL_MS) return;
    onAction(envelope.action, envelope);
  };

  const listener = (changes: Record<string, { newValue?: unknown }>, area: string) => {
    if (area !== 'session' || !(PENDING_ACTION_KEY in changes)) return;
    const next = changes[PENDING_ACTION_KEY].newValue;
    if (next !== undefined) void consider(next);
  };
  browser.storage.onChanged.addListener(listener);
  const ready = browser.storage.session
    .get(PENDING_ACTION_KEY)
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
