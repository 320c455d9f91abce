import { infiniteQueryOptions, queryOptions, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { NotificationPageSchema, UnreadCountSchema, type NotificationPage } from '../contracts/notifications.ts';
import { apiGet, apiPost } from './request.ts';

/**
 * The user's notifications (docs/economy.md#notifications): the unread count the bell and the
 * extension's badge show, the list, and marking read.
 */

/** The list loads 20 notifications per page. */
export const NOTIFICATION_PAGE_SIZE = 20;

export async function getUnreadCount(signal?: AbortSignal): Promise<number> {
  return (await apiGet('/api/UserNotification/GetUnreadCount', undefined, { data: UnreadCountSchema, signal })).unread;
}

/** A page of notifications, newest first, with the unread count beside it. */
export function getNotificationList(query: { page: number; count: number; unreadOnly?: boolean }, signal?: AbortSignal): Promise<NotificationPage> {
  return apiGet('/api/UserNotification/GetList', query, { data: NotificationPageSchema, signal });
}

/** Marks the caller's notifications among `ids` read; answers the unread count left. */
export async function readNotifications(ids: string[]): Promise<number> {
  return (await apiPost('/api/UserNotification/Read', { ids }, { data: UnreadCountSchema })).unread;
}

/** Marks all the caller's notifications read; answers the unread count left (0). */
export async function readAllNotifications(): Promise<number> {
  return (await apiPost('/api/UserNotification/ReadAll', {}, { data: UnreadCountSchema })).unread;
}

/**
 * The query-cache entries, keyed by the login's token so another account's notifications are never
 * shown from the cache after it changes.
 */
export const notificationsKey = ['notifications'] as const;

export function unreadCountQuery(token: string | null) {
  return queryOptions({
    queryKey: [...notificationsKey, 'unread', token] as const,
    queryFn: ({ signal }) => getUnreadCount(signal),
    enabled: token !== null,
  });
}

export function notificationListQuery(token: string | null) {
  return infiniteQueryOptions({
    queryKey: [...notificationsKey, 'list', token] as const,
    queryFn: ({ pageParam, signal }) => getNotificationList({ page: pageParam, count: NOTIFICATION_PAGE_SIZE }, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages, lastPage) => {
      const loaded = pages.reduce((n, p) => n + p.list.length, 0);
      return last.list.length === NOTIFICATION_PAGE_SIZE && loaded < last.total ? lastPage + 1 : undefined;
    },
    enabled: token !== null,
  });
}

type NotificationPages = InfiniteData<NotificationPage, number>;

/**
 * After a Read or ReadAll: the items (those of `ids`, or all) show as read and the count is the
 * server's answer, without refetching the list.
 */
export function markReadInCache(client: QueryClient, token: string | null, ids: readonly string[] | 'all', unread: number): void {
  client.setQueryData(unreadCountQuery(token).queryKey, unread);
  client.setQueryData<NotificationPages>(notificationListQuery(token).queryKey, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            unread,
            list: page.list.map((n) => (ids === 'all' || ids.includes(n.id) ? { ...n, read: true } : n)),
          })),
        }
      : data,
  );
}
