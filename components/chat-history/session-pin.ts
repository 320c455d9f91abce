import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { pinSession, pinSessionInCache } from '../../shared/api/chat-history.ts';
import type { ChatSessionItem } from '../../shared/contracts/chat.ts';
import en from '../../locales/features/chat-history.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { onMutationError } from '../ui/notify.ts';

addEnglishStrings(en);

/**
 * Pinning a chat to the top of the history, or unpinning it: once the server has it, the chat moves
 * to its new place in the loaded history (pinSessionInCache), as a rename shows its new name.
 */
export function useSessionPin(session: Pick<ChatSessionItem, 'chatSessionId' | 'pinned'>) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const pin = useMutation({
    mutationFn: (pinned: boolean) => pinSession({ chatSessionId: session.chatSessionId, pinned }),
    onSuccess: (_data, pinned) => pinSessionInCache(queryClient, session.chatSessionId, pinned),
    onError: (error, pinned) => onMutationError(t(pinned ? 'chatHistory.pinFailed' : 'chatHistory.unpinFailed'))(error),
  });
  return { toggle: () => pin.mutate(!session.pinned), pending: pin.isPending };
}
