import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { getMessagesNewestFirst } from '../../shared/api/chat.ts';
import { ApiError } from '../../shared/api/request.ts';
import { tokenAtom } from '../../shared/atoms/auth.ts';
import { Codes } from '../../shared/contracts/envelope.ts';

/** The server names every chat with a UUID (it makes the id when the first message is stored). */
const CHAT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What the address /{id} names when it is not a chat to show:
 * - `chat`: no chat of the signed-in account (deleted, another account's, a mistyped id): the server
 *   answers not found (or bad input for an id it cannot be). The account stays signed in; the chat
 *   layout shows "chat not found" instead of an empty chat.
 * - `page`: a visitor on an address that cannot be a chat (/pricingg, /abc): the not-found page, not
 *   a request to sign in. A visitor on a chat's address is asked to sign in, as the chat may be theirs.
 * - null: a chat (or a new one at /), or not known yet.
 */
export function useChatMissing(id: string | undefined): 'chat' | 'page' | null {
  const token = useAtomValue(tokenAtom);
  const query = useQuery({
    queryKey: ['chat-exists', id, token],
    queryFn: ({ signal }) => getMessagesNewestFirst(id!, 1, signal).then(() => true),
    enabled: !!id && token !== null,
    retry: false,
    staleTime: Infinity,
  });
  if (id && token === null && !CHAT_ID.test(id)) return 'page';
  const error = query.error;
  return error instanceof ApiError && (error.code === Codes.NotFound || error.code === Codes.BadRequest) ? 'chat' : null;
}
