import { createContext, type ComponentType, type ReactNode } from 'react';
import type { ChatSessionItem } from '../../shared/contracts/chat.ts';

/**
 * What other features add to a chat's menu in the history (the layout fills it: sharing and
 * export). It renders the menu through `renderItems` with its own items inside, and may render
 * beside it what outlives the menu (a dialog).
 */
export type SessionActions = ComponentType<{ session: ChatSessionItem; renderItems: (items: ReactNode) => ReactNode }>;

export const SessionActionsContext = createContext<SessionActions | null>(null);
