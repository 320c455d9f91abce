import { createContext, type ReactNode } from 'react';
import type { ChatExchange, ChatToolCall } from '../../shared/contracts/chat.ts';
import type { ModelListItem } from '../../shared/contracts/model.ts';

/**
 * What other features show inside the chat (points: today's check-in, the cost of a message, the
 * Not-Enough-Points notice). A feature imports no other, so components/layout passes them in.
 */
export interface ChatAddons {
  /** Under the welcome of an empty chat, for signed-in users. */
  welcome?: ReactNode;
  /** Beside the send button: what the next message costs with `model`. */
  sendCost?: (model: ModelListItem | undefined, models: readonly ModelListItem[]) => ReactNode;
  /** In place of the error of a message refused with `code`; null or undefined shows the error as it is. */
  failureNotice?: (code: number, message: string) => ReactNode;
  /**
   * What picking a model above the user's plan (locked) shows: the upgrade prompt, open while
   * `opened`. Without it, locked models cannot be picked.
   */
  upgradePrompt?: (prompt: LockedModelPrompt) => ReactNode;
  /**
   * In place of a tool call's item in an answer: a card of the feature that owns the tool (the
   * memory's "Remember this? Save / Dismiss"); null or undefined shows the usual item.
   */
  toolCallCard?: (call: ChatToolCall, answer: { chatMessageId?: string; streaming: boolean }) => ReactNode;
  /** Among a finished answer's actions (copy, retry, delete): more of them (save to favourites, export). */
  answerActions?: (answer: { chatMessageId: string; exchange: ChatExchange }) => ReactNode;
}

/** A locked model the user picked; `model` stays while the prompt closes. */
export interface LockedModelPrompt {
  opened: boolean;
  model: ModelListItem | null;
  onClose: () => void;
}

/** The addons of the chat on screen, for the messages deep in its list. */
export const ChatAddonsContext = createContext<ChatAddons>({});
