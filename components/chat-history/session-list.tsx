import { Button, Center, Loader, ScrollArea, Stack, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { chatSessionsQuery } from '../../shared/api/chat-history.ts';
import { groupSessions, groupTitle, type HistoryGroup } from './history-groups.ts';
import { SessionItem } from './session-item.tsx';

export interface SessionListProps {
  activeSessionId?: string;
  onNavigate: (path: string) => void;
}

/**
 * One section of the history under its header (Pinned, Today, ..., a month): its own list, named by
 * the header, so the headers are not items among the chats. Dates are written in full; a long one wraps.
 */
function HistorySection({ group, activeSessionId, onNavigate }: SessionListProps & { group: HistoryGroup }) {
  const { t } = useTranslation();
  const headerId = useId();
  return (
    <div>
      <Text component="h2" id={headerId} size="xs" c="dimmed" fw={600} m={0} px={8} pt={4} pb={2}>
        {groupTitle(group.key, t)}
      </Text>
      <Stack gap={2} role="list" aria-labelledby={headerId}>
        {group.sessions.map((session) => (
          <div role="listitem" key={session.chatSessionId}>
            <SessionItem session={session} active={session.chatSessionId === activeSessionId} onNavigate={onNavigate} />
          </div>
        ))}
      </Stack>
    </div>
  );
}

/**
 * The history, 20 chats per page, in sections by date (the pinned chats first); the next page loads
 * when the end of the list scrolls into view, whatever section it ends in.
 */
export function SessionList({ activeSessionId, onNavigate }: SessionListProps) {
  const { t } = useTranslation();
  const query = useInfiniteQuery(chatSessionsQuery());
  const viewport = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;

  useEffect(() => {
    const target = sentinel.current;
    // After a failed page the retry button takes over: observing again would retry in a loop.
    if (!target || !hasNextPage || isFetchNextPageError) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      // Starts loading a little before the very end, so scrolling rarely stops on the loader.
      { root: viewport.current, rootMargin: '0px 0px 120px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);

  if (query.isPending) {
    return (
      <Center py="md">
        <Loader size="sm" aria-label={t('chat.sider.loading')} />
      </Center>
    );
  }
  if (query.isError && !query.data) {
    return (
      <Stack align="center" gap={4} py="md">
        <Text size="sm" c="dimmed">
          {t('chat.sider.loadFailed')}
        </Text>
        <Button size="xs" variant="subtle" onClick={() => void query.refetch()}>
          {t('chat.sider.retry')}
        </Button>
      </Stack>
    );
  }

  const sessions = query.data.pages.flatMap((page) => page.list);
  return (
    <ScrollArea viewportRef={viewport} style={{ flex: 1, minHeight: 0 }} type="hover">
      {sessions.length === 0 ? (
        <Text size="sm" c="dimmed" ta="center" py="md">
          {t('chat.sider.empty')}
        </Text>
      ) : (
        <Stack gap="xs">
          {groupSessions(sessions).map((group) => (
            <HistorySection key={group.key} group={group} activeSessionId={activeSessionId} onNavigate={onNavigate} />
          ))}
        </Stack>
      )}
      <div ref={sentinel} data-testid="history-sentinel" style={{ height: 1 }} />
      {isFetchNextPageError && (
        <Center py={4}>
          <Button size="xs" variant="subtle" onClick={() => void fetchNextPage()}>
            {t('chat.sider.retry')}
          </Button>
        </Center>
      )}
      {isFetchingNextPage && (
        <Center py={4}>
          <Loader size="xs" aria-label={t('chat.sider.loading')} />
        </Center>
      )}
    </ScrollArea>
  );
}
