import { infiniteQueryOptions, queryOptions, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import {
  ChatSessionPageSchema,
  DeleteSessionsResultSchema,
  type ChatSessionItem,
  type DeleteSessionsBody,
  type UpdateSessionTitleBody,
} from '../contracts/chat.ts';
import type { Paged } from '../contracts/common.ts';
import { MessageSearchPageSchema, type MessageSearchPage } from '../contracts/chat-search.ts';
import { apiGet, apiPost } from './request.ts';

/** The history loads 20 sessions per page; a search shows the first 10 matches. */
export const SESSION_PAGE_SIZE = 20;
export const SESSION_SEARCH_SIZE = 10;

export type ChatSessionPage = Paged<ChatSessionItem>;

export function getChatSessionList(
  query: { page: number; count: number; sessionTitle?: string },
  signal?: AbortSignal,
): Promise<ChatSessionPage> {
  return apiGet('/api/Chat/GetChatSessionListBySelf', query, { data: ChatSessionPageSchema, signal });
}

export function updateSessionTitle(body: UpdateSessionTitleBody): Promise<unknown> {
  return apiPost('/api/Chat/UpdateSessionTitle', body);
}

export function deleteSessions(body: DeleteSessionsBody): Promise<{ deleted: number }> {
  return apiPost('/api/Chat/DeleteSessions', body, { data: DeleteSessionsResultSchema });
}

/**
 * The history's query-cache entry. Every feature that changes sessions (the chat creating one,
 * the sidebar renaming one) edits this one entry, so the list follows without a refetch.
 */
export const chatSessionsKey = ['chat-sessions'] as const;

export function chatSessionsQuery() {
  return infiniteQueryOptions({
    queryKey: [...chatSessionsKey, 'list'] as const,
    queryFn: ({ pageParam, signal }) => getChatSessionList({ page: pageParam, count: SESSION_PAGE_SIZE }, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages, lastPage) => {
      const loaded = pages.reduce((n, p) => n + p.list.length, 0);
      return last.list.length === SESSION_PAGE_SIZE && loaded < last.total ? lastPage + 1 : undefined;
    },
  });
}

export function chatSessionSearchQuery(sessionTitle: string) {
  return queryOptions({
    queryKey: [...chatSessionsKey, 'search', sessionTitle] as const,
    queryFn: ({ signal }) => getChatSessionList({ page: 1, count: SESSION_SEARCH_SIZE, sessionTitle }, signal),
  });
}

/** The search dialog's matches inside messages (first 10): question or answer text, any script. */
export function messageSearchQuery(q: string) {
  return queryOptions({
    queryKey: [...chatSessionsKey, 'search-messages', q] as const,
    queryFn: ({ signal }): Promise<MessageSearchPage> =>
      apiGet('/api/Chat/SearchMessages', { q, page: 1, count: SESSION_SEARCH_SIZE }, { data: MessageSearchPageSchema, signal }),
  });
}

type SessionPages = InfiniteData<ChatSessionPage, number>;

function editSessionPages(client: QueryClient, edit: (pages: SessionPages) => SessionPages): void {
  client.setQueryData<SessionPages>(chatSessionsQuery().queryKey, (data) => (data ? edit(data) : data));
}

function withoutSession(data: SessionPages, chatSessionId: string): { data: SessionPages; removed: number } {
  let removed = 0;
  const pages = data.pages.map((page) => {
    const list = page.list.filter((s) => s.chatSessionId !== chatSessionId);
    removed += page.list.length - list.length;
    return { ...page, list };
  });
  return { data: { ...data, pages }, removed };
}

/** Puts `session` first in the loaded history (moving it when it is already listed). */
export function moveSessionToTop(client: QueryClient, session: ChatSessionItem): void {
  editSessionPages(client, (current) => {
    const { data, removed } = withoutSession(current, session.chatSessionId);
    const [first, ...rest] = data.pages;
    if (!first) return current;
    // A session that was not listed is new to the total; pages keep their server paging otherwise.
    const total = removed > 0 ? first.total : first.total + 1;
    return { ...data, pages: [{ list: [session, ...first.list], total }, ...rest.map((p) => ({ ...p, total }))] };
  });
}

export function renameSessionInCache(client: QueryClient, chatSessionId: string, sessionTitle: string): void {
  editSessionPages(client, (data) => ({
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      list: page.list.map((s) => (s.chatSessionId === chatSessionId ? { ...s, sessionTitle } : s)),
    })),
  }));
}

export function removeSessionFromCache(client: QueryClient, chatSessionId: string): void {
  editSessionPages(client, (current) => {
    const { data, removed } = withoutSession(current, chatSessionId);
    return { ...data, pages: data.pages.map((p) => ({ ...p, total: Math.max(0, p.total - removed) })) };
  });
}

export function clearSessionsInCache(client: QueryClient): void {
  editSessionPages(client, (data) => ({ pages: [{ list: [], total: 0 }], pageParams: [data.pageParams[0] ?? 1] }));
}
