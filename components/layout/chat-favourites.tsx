import { useLocation } from 'wouter';
import type { ChatAddons } from '../chat/chat-addons.ts';
import type { SaveAnswerButtonProps } from '../favourites/save-answer-button.tsx';
import { deferred } from '../ui/deferred.tsx';
import { FAVOURITES_PATH } from './favourites-routes.tsx';

/**
 * The favourites feature inside the chat: a star among each finished answer's actions that saves it
 * to favourites (its toast leads to the saved answers). A chunk fetched after the first screen.
 */
const SaveAnswerButton = deferred<SaveAnswerButtonProps>(() => import('../favourites/save-answer-button.tsx').then((module) => module.SaveAnswerButton)).Component;

function SaveAnswer({ chatMessageId }: { chatMessageId: string }) {
  const [, navigate] = useLocation();
  return <SaveAnswerButton chatMessageId={chatMessageId} onView={() => navigate(FAVOURITES_PATH)} />;
}

export const chatFavouritesAddons: ChatAddons = {
  answerActions: ({ chatMessageId }) => <SaveAnswer chatMessageId={chatMessageId} />,
};
