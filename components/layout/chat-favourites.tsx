import type { ChatAddons } from '../chat/chat-addons.ts';
import type { SaveAnswerButtonProps } from '../favourites/save-answer-button.tsx';
import { deferred } from '../ui/deferred.tsx';

/**
 * The favourites feature inside the chat: a star among each finished answer's actions that saves it
 * to favourites. A chunk fetched after the first screen.
 */
const SaveAnswerButton = deferred<SaveAnswerButtonProps>(() => import('../favourites/save-answer-button.tsx').then((module) => module.SaveAnswerButton)).Component;

export const chatFavouritesAddons: ChatAddons = {
  answerActions: ({ chatMessageId }) => <SaveAnswerButton chatMessageId={chatMessageId} />,
};
