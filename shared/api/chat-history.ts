import { infiniteQueryOptions, queryOptions, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import {
  ChatSessionItemSchema,
  ChatSessionPageSchema,
  DeleteSessionsResultSchema,
  type ChatSessionItem,
  type DeleteSessionsBody,
  type PinSessionBody,
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

export function pinSession(body: PinSessionBody): Promise<unknown> {
  return apiPost('/api/Chat/PinSession', body);
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

/** One chat's entry, under the history's key (so what refreshes the history refreshes it too). */
const chatSessionKey = (chatSessionId: string) => [...chatSessionsKey, 'one', chatSessionId] as const;

/**
 * One of the caller's chats (the open chat's header: its title). Shown at once from the loaded
 * history when it lists the chat; asked of the server otherwise (a chat further down, or opened by
 * a link) and when the history is refreshed.
 */
export function chatSessionQuery(client: QueryClient, chatSessionId: string) {
  return queryOptions({
    queryKey: chatSessionKey(chatSessionId),
    queryFn: ({ signal }) => apiGet('/api/Chat/GetChatSession', { chatSessionId }, { data: ChatSessionItemSchema, signal }),
    initialData: () =>
      client
        .getQueryData<SessionPages>(chatSessionsQuery().queryKey)
        ?.pages.flatMap((page) => page.list)
        .find((s) => s.chatSessionId === chatSessionId),
    initialDataUpdatedAt: () => client.getQueryState(chatSessionsQuery().queryKey)?.dataUpdatedAt,
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

/** A chat as the chat screen knows it when it starts one: last active when made, and not pinned, unless said. */
export type StartedSession = Omit<ChatSessionItem, 'lastActiveTime' | 'pinned'> & Partial<Pick<ChatSessionItem, 'lastActiveTime' | 'pinned'>>;

/**
 * Puts `session` first in the loaded history, after the pinned chats unless it is one of them
 * (moving it when it is already listed).
 */
export function moveSessionToTop(client: QueryClient, started: StartedSession): void {
  const session: ChatSessionItem = { ...started, lastActiveTime: started.lastActiveTime ?? started.createTime, pinned: started.pinned ?? false };
  editSessionPages(client, (current) => {
    const { data, removed } = withoutSession(current, session.chatSessionId);
    const [first, ...rest] = data.pages;
    if (!first) return current;
    // A session that was not listed is new to the total; pages keep their server paging otherwise.
    const total = removed > 0 ? first.total : first.total + 1;
    const pinnedAhead = session.pinned ? 0 : first.list.filter((s) => s.pinned).length;
    const list = [...first.list.slice(0, pinnedAhead), session, ...first.list.slice(pinnedAhead)];
    return { ...data, pages: [{ list, total }, ...rest.map((p) => ({ ...p, total }))] };
  });
}

/** `items` cut into pages as long as `pages` were (the last one takes what is left). */
function splitLike(pages: ChatSessionPage[], items: ChatSessionItem[]): ChatSessionPage[] {
  let start = 0;
  return pages.map((page, i) => {
    const end = i === pages.length - 1 ? items.length : start + page.list.length;
    const list = items.slice(start, end);
    start = end;
    return { ...page, list };
  });
}

/**
 * A chat the user pinned or unpinned moves to where the server now lists it: a pinned one first, an
 * unpinned one among the others by its last activity. Each page keeps its length, so the next page
 * the server sends follows on (the chats past the loaded pages keep their places). A chat the loaded
 * pages do not hold (pinned from the open chat), or an unpinned one older than every loaded chat (it
 * belongs to a page not loaded yet: it shows last meanwhile), has the history fetched again.
 */
export function pinSessionInCache(client: QueryClient, chatSessionId: string, pinned: boolean): void {
  client.setQueryData<ChatSessionItem>(chatSessionKey(chatSessionId), (session) => session && { ...session, pinned });
  let refetch = false;
  editSessionPages(client, (data) => {
    const all = data.pages.flatMap((page) => page.list);
    const session = all.find((s) => s.chatSessionId === chatSessionId);
    if (!session) {
      refetch = true;
      return data;
    }
    const moved = { ...session, pinned };
    const others = all.filter((s) => s !== session);
    const activeAt = (s: ChatSessionItem) => Date.parse(s.lastActiveTime);
    let at = pinned ? 0 : others.findIndex((s) => !s.pinned && activeAt(s) < activeAt(moved));
    if (at < 0) {
      at = others.length;
      refetch = all.length < (data.pages[0]?.total ?? 0);
    }
    return { ...data, pages: splitLike(data.pages, [...others.slice(0, at), moved, ...others.slice(at)]) };
  });
  if (refetch) void client.invalidateQueries({ queryKey: chatSessionsQuery().queryKey });
}

export function renameSessionInCache(client: QueryClient, chatSessionId: string, sessionTitle: string): void {
  client.setQueryData<ChatSessionItem>(chatSessionKey(chatSessionId), (session) => session && { ...session, sessionTitle });
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
