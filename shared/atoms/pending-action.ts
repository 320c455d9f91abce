import { atom } from 'jotai';
import type { PendingActionEnvelope } from '../contracts/selection-action.ts';

/**
 * An action the page sent to the side panel (the selection toolbar, a context menu item, the
 * send-selection shortcut), waiting for the chat to run it: set by the side panel's entrypoint
 * (shared/messaging/pending-action.ts), taken and cleared by the chat
 * (components/chat/pending-action.ts). Never persisted: the hand-off itself is.
 */
export const pendingChatActionAtom = atom<PendingActionEnvelope | null>(null);
