import { queryOptions } from '@tanstack/react-query';
import {
  ChatMessagePageSchema,
  type AddMessageBody,
  type ChatMessageItem,
} from '../contracts/chat.ts';
import type { Paged } from '../contracts/common.ts';
import { ModelListSchema } from '../contracts/model.ts';
import { apiGet, apiPost } from './request.ts';
import { streamMessage, type StreamOptions, type StreamUpdate } from './sse.ts';

/** How many messages a chat opens with, and each step further back. */
export const MESSAGE_PAGE_SIZE = 30;

/** The catalogue as the caller sees it (locked models included, so the picker can explain them). */
/**
 * The models the caller may pick. Keyed by the plan level too: a plan bought or ended (seen when the
 * user is read again) lists the models it unlocks or locks at once, not after the cache's 5 minutes.
 */
export function modelListQuery(loggedIn: boolean, planLevel = 0) {
  return queryOptions({
    queryKey: ['models', loggedIn, planLevel] as const,
    queryFn: ({ signal }) => apiGet('/api/Chat/GetModelListAll', undefined, { data: ModelListSchema, signal }),
    staleTime: 5 * 60_000,
  });
}

/** Page `page` of a chat counted from its newest message, answered oldest first. */
export async function getMessagesNewestFirst(chatSessionId: string, page: number, signal?: AbortSignal): Promise<Paged<ChatMessageItem>> {
  const result = await apiGet(
    '/api/Chat/GetChatMessageListBySelfSessionId',
    { chatSessionId, page, count: MESSAGE_PAGE_SIZE, order: 'desc' },
    { data: ChatMessagePageSchema, signal },
  );
  return { list: [...result.list].reverse(), total: result.total };
}

/**
 * AddMessage streams; no timeout, the caller's signal aborts it. chatMediaIds are the
 * completed attachments (UploadMedia) the model reads with the message, MAX_MEDIA_PER_MESSAGE at most.
 */
export function sendChatMessage(body: AddMessageBody, options: StreamOptions): Promise<StreamUpdate> {
  return streamMessage('/api/Chat/AddMessage', body, options);
}

export function stopChatMessage(chatMessageId: string): Promise<unknown> {
  return apiPost('/api/Chat/StopMessage', { chatMessageId });
}

export function deleteChatMessage(chatMessageId: string): Promise<unknown> {
  return apiPost('/api/Chat/DeleteMessage', { chatMessageId });
}
