import { ChatMessagePageSchema, type ChatMessageItem } from '../../shared/contracts/chat.ts';
import {
  SharedChatSchema,
  ShareItemSchema,
  ShareListSchema,
  type SharedChat,
  type ShareItem,
  type ShareSessionBody,
} from '../../shared/contracts/share.ts';
import { MARKDOWN_TO_PDF_PATH, type MarkdownToPdfBody } from '../../shared/contracts/export.ts';
import { apiGet, apiPost, apiPostFile } from '../../shared/api/request.ts';

export const shareListKey = ['share-links'] as const;

export function shareSession(body: ShareSessionBody): Promise<ShareItem> {
  return apiPost('/api/Chat/ShareSession', body, { data: ShareItemSchema });
}

export function getShareList(signal?: AbortSignal): Promise<ShareItem[]> {
  return apiGet('/api/Chat/GetShareList', undefined, { data: ShareListSchema, signal });
}

export function revokeShare(shareId: string): Promise<unknown> {
  return apiPost('/api/Chat/RevokeShare', { shareId });
}

/** A shared chat, for anyone with the link (no login needed). */
export function getSharedChat(shareId: string, signal?: AbortSignal): Promise<SharedChat> {
  return apiGet('/api/Share/GetShare', { shareId }, { data: SharedChatSchema, signal });
}

/** Every message of one of the caller's chats, oldest first (100 a request). */
export async function getAllMessages(chatSessionId: string): Promise<ChatMessageItem[]> {
  const all: ChatMessageItem[] = [];
  for (let page = 1; ; page++) {
    const result = await apiGet('/api/Chat/GetChatMessageListBySelfSessionId', { chatSessionId, page, count: 100, order: 'asc' }, { data: ChatMessagePageSchema });
    all.push(...result.list);
    if (result.list.length < 100 || all.length >= result.total) return all;
  }
}

/** A Markdown document made into a PDF by the server (text, not pictures): the file, or the server's refusal. */
export function markdownToPdf(body: MarkdownToPdfBody): Promise<Blob> {
  return apiPostFile(MARKDOWN_TO_PDF_PATH, body);
}
