import { ActionIcon, Tooltip } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { followUnreadCount } from '../../shared/api/notification-events.ts';
import { notificationListQuery, notificationsKey, unreadCountQuery } from '../../shared/api/notifications.ts';
import { isLoggedInAtom, tokenAtom } from '../../shared/atoms/auth.ts';
import { reportUnreadCount } from '../../shared/atoms/notifications.ts';
import { deferred } from '../ui/deferred.tsx';
import { IconBell } from '../ui/icons.tsx';
import type { NotificationDrawerProps } from './notification-drawer.tsx';

/** While the page is visible and the live stream is down, the count is asked for again every minute. */
export const UNREAD_REFRESH_MS = 60_000;
/** How long the badge waits for the stream's first count before asking for it (a test shortens it). */
export const FIRST_COUNT_WAIT = { ms: 3_000 };

/** The live stream: being opened, sending counts, or down (failed, dropped, or absent on this server). */
type LiveState = 'opening' | 'live' | 'down';

/** The list is a chunk of its own, fetched once the first screen is up (the drawer is closed then). */
const Drawer = deferred<NotificationDrawerProps>(() => import('./notification-drawer.tsx').then((module) => module.NotificationDrawer));

/** What the bell shows: the count, or 99+. */
export const unreadLabel = (count: number) => (count > 99 ? '99+' : String(count));

export interface NotificationBellProps {
  /** Route changes go through the caller (a notification's link). */
  onNavigate: (path: string) => void;
}

/** The bell with the unread count, opening the list. Signed-in only: renders nothing for a visitor. */
export function NotificationBell({ onNavigate }: NotificationBellProps) {
  const loggedIn = useAtomValue(isLoggedInAtom);
  const queryClient = useQueryClient();
  // Another account's notifications must not stay in the cache after a logout.
  useEffect(() => {
    if (!loggedIn) queryClient.removeQueries({ queryKey: notificationsKey });
  }, [loggedIn, queryClient]);
  return loggedIn ? <SignedInBell onNavigate={onNavigate} /> : null;
}

/**
 * The live count (shared/api/notification-events.ts): each count the server pushes goes into the
 * query cache, and a new one marks the list stale (the drawer shows the new notification when it
 * opens, or at once when open). Opened with the login and closed when it changes or ends (logout);
 * it opens again by itself when it drops.
 */
function useLiveUnreadCount(token: string | null): LiveState {
  const queryClient = useQueryClient();
  const [live, setLive] = useState<LiveState>('opening');
  useEffect(() => {
    if (token === null) return;
    const stop = new AbortController();
    const countKey = unreadCountQuery(token).queryKey;
    setLive('opening');
    // A stream that neither sends nor fails (a proxy holding it) must not leave the badge empty.
    const late = setTimeout(() => setLive((state) => (state === 'opening' ? 'down' : state)), FIRST_COUNT_WAIT.ms);
    void followUnreadCount({
      token,
      signal: stop.signal,
      onLive: (isLive) => setLive(isLive ? 'live' : 'down'),
      onCount: (unread) => {
        // A count asked for while the stream was down may still be on its way: it is older than this one.
        void queryClient.cancelQueries({ queryKey: countKey, exact: true });
        if (queryClient.getQueryData(countKey) === unread) return;
        queryClient.setQueryData(countKey, unread);
        void queryClient.invalidateQueries({ queryKey: notificationListQuery(token).queryKey });
      },
    });
    return () => {
      clearTimeout(late);
      stop.abort();
    };
  }, [token, queryClient]);
  return live;
}

/**
 * The unread count: followed live while the stream is up (its first event is the count), else asked
 * for at once and every minute while the page is visible; and again when the page comes back into view or gets the focus
 * (the side panel stays visible while the user works in the tab beside it, and only gets the focus
 * back). Each new count is stored, which the extension's toolbar badge follows.
 */
function useUnreadCount(token: string | null): number {
  const live = useLiveUnreadCount(token);
  // The stream's first event is the count: it is asked for only when no stream sends it.
  const asked = live === 'down';
  const query = useQuery({
    ...unreadCountQuery(token),
    enabled: token !== null && asked,
    refetchInterval: asked ? UNREAD_REFRESH_MS : false,
    refetchIntervalInBackground: false,
  });
  const { refetch } = query;
  useEffect(() => {
    if (!asked) return;
    const refresh = () => {
      if (document.visibilityState === 'visible') void refetch({ cancelRefetch: false });
    };
    window.addEventListener('focus', refresh);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      window.removeEventListener('focus', refresh);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, [asked, refetch]);
  useEffect(() => {
    if (query.data !== undefined) void reportUnreadCount(query.data);
  }, [query.data]);
  return query.data ?? 0;
}

function SignedInBell({ onNavigate }: NotificationBellProps) {
  const { t } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const count = useUnreadCount(token);
  const [open, setOpen] = useState(false);
  const label = count > 0 ? t('notifications.panel.openUnread', { count: unreadLabel(count) }) : t('notifications.panel.title');
  return (
    <>
      <Tooltip label={label}>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={label}
          aria-haspopup="dialog"
          data-testid="notification-bell"
          onClick={() => setOpen(true)}
          style={{ position: 'relative', overflow: 'visible' }}
        >
          <IconBell />
          {count > 0 && (
            <span
              data-testid="notification-count"
              aria-hidden="true"
              style={{
                position: 'absolute',
                top: -3,
                right: -5,
                minWidth: 16,
                height: 16,
                padding: '0 4px',
                borderRadius: 8,
                background: 'var(--mantine-color-red-6)',
                color: 'white',
                fontSize: 10,
                fontWeight: 700,
                lineHeight: '16px',
                textAlign: 'center',
                pointerEvents: 'none',
              }}
            >
              {unreadLabel(count)}
            </span>
          )}
        </ActionIcon>
      </Tooltip>
      <Drawer.Component opened={open} onClose={() => setOpen(false)} token={token} onNavigate={onNavigate} />
    </>
  );
}
