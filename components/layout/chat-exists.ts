import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { getMessagesNewestFirst } from '../../shared/api/chat.ts';
import { ApiError } from '../../shared/api/request.ts';
import { tokenAtom } from '../../shared/atoms/auth.ts';
import { Codes } from '../../shared/contracts/envelope.ts';

/**
 * Whether the address /{id} names no chat of the signed-in account (deleted, another account's, a
 * mistyped path): the server answers not found (or bad input for an id it cannot be). The account
 * stays signed in; the chat layout shows "chat not found" instead of an empty chat.
 */
export function useChatMissing(id: string | undefined): boolean {
  const token = useAtomValue(tokenAtom);
  const query = useQuery({
    queryKey: ['chat-exists', id, token],
    queryFn: ({ signal }) => getMessagesNewestFirst(id!, 1, signal).then(() => true),
    enabled: !!id && token !== null,
    retry: false,
    staleTime: Infinity,
  });
  const error = query.error;
  return error instanceof ApiError && (error.code === Codes.NotFound || error.code === Codes.BadRequest);
}
