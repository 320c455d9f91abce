import { atom } from 'jotai';
import type { PendingActionEnvelope } from '../contracts/selection-action.ts';

/**
 * A message on its way before the chat that shows it existed (the side panel's first script sent a
 * tool's message: shared/api/early-message.ts): fetch's answer, and the way to cancel it.
 */
export interface SentMessage {
  response: Promise<Response>;
  abort: (reason?: unknown) => void;
}

/** A page's action for the chat; `sent` when its message has left already (the chat shows its answer). */
export type PendingChatAction = PendingActionEnvelope & { sent?: SentMessage };

/**
 * An action the page sent to the side panel (the selection toolbar, a context menu item, the
 * send-selection shortcut), waiting for the chat to run it: set by the side panel's entrypoint
 * (shared/messaging/pending-action.ts), taken and cleared by the chat
 * (components/chat/pending-action.ts). Never persisted: the hand-off itself is.
 */
export const pendingChatActionAtom = atom<PendingChatAction | null>(null);
