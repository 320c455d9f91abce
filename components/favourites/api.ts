import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  FavouriteItemSchema,
  FavouritePageSchema,
  IsSavedResultSchema,
  MAX_IS_SAVED_IDS,
  type FavouriteItem,
  type FavouritePage,
  type UpdateFavouriteBody,
} from '../../shared/contracts/favourites.ts';
import { apiGet, apiPost } from '../../shared/api/request.ts';

/**
 * Favourite answers (/api/Save/*, docs/api.md#favourite-answers-save): save an answer of the chat,
 * list and search the saved copies, read, edit and delete one, and ask which answers are saved.
 */

/** The list shows 10 favourites per page. */
export const FAVOURITE_PAGE_SIZE = 10;

export function addFavourite(chatMessageId: string): Promise<FavouriteItem> {
  return apiPost('/api/Save/Add', { chatMessageId }, { data: FavouriteItemSchema });
}

export function getFavouriteList(query: { page: number; count: number; q?: string }, signal?: AbortSignal): Promise<FavouritePage> {
  return apiGet('/api/Save/GetList', { ...query, q: query.q || undefined }, { data: FavouritePageSchema, signal });
}

export function getFavourite(favouriteId: string, signal?: AbortSignal): Promise<FavouriteItem> {
  return apiGet('/api/Save/GetById', { favouriteId }, { data: FavouriteItemSchema, signal });
}

export function updateFavourite(body: UpdateFavouriteBody): Promise<FavouriteItem> {
  return apiPost('/api/Save/Update', body, { data: FavouriteItemSchema });
}

export async function deleteFavourite(favouriteId: string): Promise<void> {
  await apiPost('/api/Save/Delete', { favouriteId });
}

/** message id → favourite id, for the messages among `chatMessageIds` that are saved. */
export async function savedAmong(chatMessageIds: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let i = 0; i < chatMessageIds.length; i += MAX_IS_SAVED_IDS) {
    const { list } = await apiPost('/api/Save/IsSaved', { chatMessageIds: chatMessageIds.slice(i, i + MAX_IS_SAVED_IDS) }, { data: IsSavedResultSchema });
    for (const item of list) found.set(item.chatMessageId, item.favouriteId);
  }
  return found;
}

/**
 * Whether one message is saved, asked for many at once: the save buttons of a chat's answers each
 * ask for their message in the same render, and one IsSaved call answers them all.
 */
let pending: { ids: Set<string>; result: Promise<Map<string, string>> } | null = null;

export function isSaved(chatMessageId: string): Promise<string | null> {
  if (!pending) {
    const ids = new Set<string>();
    const result = Promise.resolve().then(() => {
      pending = null;
      return savedAmong([...ids]);
    });
    pending = { ids, result };
  }
  pending.ids.add(chatMessageId);
  return pending.result.then((found) => found.get(chatMessageId) ?? null);
}

/** The query-cache entries, keyed by the login's token so another account's favourites never show from the cache. */
export const favouritesKey = ['favourites'] as const;

export function favouriteListQuery(token: string | null, q: string, page: number) {
  return queryOptions({
    queryKey: [...favouritesKey, 'list', token, q, page] as const,
    queryFn: ({ signal }) => getFavouriteList({ page, count: FAVOURITE_PAGE_SIZE, q }, signal),
    enabled: token !== null,
    // A new search or page keeps the last one on screen until it arrives (no flash of empty).
    placeholderData: keepPreviousData,
  });
}

export function favouriteQuery(token: string | null, favouriteId: string) {
  return queryOptions({
    queryKey: [...favouritesKey, 'item', token, favouriteId] as const,
    queryFn: ({ signal }) => getFavourite(favouriteId, signal),
    enabled: token !== null,
  });
}

/** The favourite of a chat message (null: not saved). */
export function savedStateQuery(token: string | null, chatMessageId: string) {
  return queryOptions({
    queryKey: [...favouritesKey, 'saved', token, chatMessageId] as const,
    queryFn: () => isSaved(chatMessageId),
    enabled: token !== null,
    staleTime: 60_000,
  });
}
