import { queryOptions } from '@tanstack/react-query';
import {
  ChatMessagePageSchema,
  SwitchVersionResultSchema,
  type AddMessageBody,
  type ChatMessageItem,
} from '../contracts/chat.ts';
import type { Paged } from '../contracts/common.ts';
import { ModelListSchema, type ModelListItem } from '../contracts/model.ts';
import { chatModels } from '../utils/default-model.ts';
import { keepingModelList, lastModelList } from './model-list-cache.ts';
import { ApiError, apiGet, apiPost, transportError } from './request.ts';
import { StreamDroppedError, streamMessage, streamMessageGet, type StreamOptions, type StreamUpdate } from './sse.ts';

/** How many messages a chat opens with, and each step further back. */
export const MESSAGE_PAGE_SIZE = 30;

/**
 * The chat models the caller may pick (locked ones included, so the picker can explain them; models
 * of other types, an image generator, are left out: shared/utils/default-model.ts chatModels). Keyed by the
 * plan level too: a plan bought or ended (seen when the user is read again) lists the models it
 * unlocks or locks at once, not after the cache's 5 minutes. Until the server answers, the list last
 * given to this server, account and plan level stands in (model-list-cache.ts).
 */
export function modelListQuery(loggedIn: boolean, planLevel = 0) {
  return queryOptions<ModelListItem[], Error, ModelListItem[], readonly ['models', boolean, number]>({
    queryKey: ['models', loggedIn, planLevel],
    queryFn: ({ signal }) => keepingModelList(planLevel, () => apiGet('/api/Chat/GetModelListAll', undefined, { data: ModelListSchema, signal })),
    placeholderData: () => lastModelList(planLevel),
    select: chatModels,
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

/**
 * SwitchVersion: the chat shows the branch through `chatMessageId` (another version of a turn, a search
 * hit). Answers that branch from the exchange down to its end, oldest first, and the whole branch's length.
 */
export function switchChatVersion(chatSessionId: string, chatMessageId: string, signal?: AbortSignal): Promise<Paged<ChatMessageItem>> {
  return apiPost('/api/Chat/SwitchVersion', { chatSessionId, chatMessageId }, { data: SwitchVersionResultSchema, signal });
}

/**
 * ResumeMessage: the answer of `chatMessageId` after the text `shown` (its offset is shown.length, in
 * UTF-16 code units as the server counts), then live to its end. Updates carry the whole text, `shown`
 * included, as AddMessage's do.
 */
export function resumeChatMessage(chatMessageId: string, shown: string, options: StreamOptions = {}): Promise<StreamUpdate> {
  return streamMessageGet('/api/Chat/ResumeMessage', { chatMessageId, offset: shown.length }, { ...options, prefix: shown });
}

/** Waits before each reconnect after a dropped stream; one more drop in a row than there are waits gives up. */
export const RESUME_DELAYS_MS: readonly number[] = [500, 1000, 2000, 4000, 8000];

/** A connection that failed, or an instance that could not answer (shutting down, behind a proxy): worth another try. */
const isDropped = (error: unknown) => error instanceof StreamDroppedError || (error instanceof ApiError && (error.status ?? 0) >= 500);

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => {
      clearTimeout(timer);
      reject(transportError(signal?.reason, signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    if (signal?.aborted) aborted();
    else signal?.addEventListener('abort', aborted, { once: true });
  });
}

/**
 * Follows an answer to its end from the text `shown`, reconnecting with ResumeMessage (from the text it
 * has by then, so nothing is shown twice or lost) when the connection drops: after each wait of
 * `delaysMs` in turn; a connection that brought new text starts the waits over.
 */
export async function followChatAnswer(
  chatMessageId: string,
  shown: string,
  options: StreamOptions & { delaysMs?: readonly number[] } = {},
): Promise<StreamUpdate> {
  const delays = options.delaysMs ?? RESUME_DELAYS_MS;
  let text = shown;
  let drops = 0;
  for (;;) {
    const before = text.length;
    try {
      return await resumeChatMessage(chatMessageId, text, {
        signal: options.signal,
        onUpdate: (update) => {
          text = update.text;
          options.onUpdate?.(update);
        },
      });
    } catch (error) {
      if (!isDropped(error) || options.signal?.aborted) throw error;
      drops = text.length > before ? 1 : drops + 1;
      if (drops > delays.length) throw error;
      await pause(delays[drops - 1], options.signal);
    }
  }
}
