import { Alert, Box, Button, Center, Group, Loader, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/notifications.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import {
  markReadInCache,
  notificationListQuery,
  readAllNotifications,
  readNotifications,
  unreadCountQuery,
} from '../../shared/api/notifications.ts';
import type { UserNotification } from '../../shared/contracts/notifications.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { onMutationError } from '../ui/notify.ts';
import { Drawer } from '../ui/overlays.tsx';
import { appPathOf, formatNotificationTime, notificationText } from './notification-text.ts';

addEnglishStrings(en);

export interface NotificationDrawerProps {
  opened: boolean;
  onClose: () => void;
  /** The login the notifications belong to (the cache key). */
  token: string | null;
  onNavigate: (path: string) => void;
}

/** The notifications list in a drawer: from the right, the whole width on a narrow screen. */
export function NotificationDrawer({ opened, onClose, token, onNavigate }: NotificationDrawerProps) {
  const { t } = useTranslation();
  const { isH5 } = usePlatform();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={isH5 ? '100%' : 420}
      padding={0}
      title={<Text fw={600}>{t('notifications.panel.title')}</Text>}
      closeButtonProps={{ 'aria-label': t('notifications.panel.close') }}
      styles={{ header: { borderBottom: '1px solid var(--mantine-color-default-border)', paddingInline: 16 } }}
    >
      <NotificationList token={token} onOpenLink={(path) => (onClose(), onNavigate(path))} />
    </Drawer>
  );
}

/** The list, newest first, 20 at a time; mounted while the drawer is open, so each opening refreshes it. */
function NotificationList({ token, onOpenLink }: { token: string | null; onOpenLink: (path: string) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useInfiniteQuery(notificationListQuery(token));
  const unread = list.data?.pages[0]?.unread;

  // The list answers the unread count too: the bell shows it as of this opening.
  useEffect(() => {
    if (unread !== undefined) queryClient.setQueryData(unreadCountQuery(token).queryKey, unread);
  }, [unread, token, queryClient]);

  const read = useMutation({
    mutationFn: async (ids: string[] | 'all') => {
      const left = ids === 'all' ? await readAllNotifications() : await readNotifications(ids);
      markReadInCache(queryClient, token, ids, left);
    },
    onError: onMutationError(t('notifications.panel.readFailed')),
  });

  const open = (notification: UserNotification) => {
    if (!notification.read) read.mutate([notification.id]);
    const path = appPathOf(notification.link);
    if (path) onOpenLink(path);
  };

  if (list.isPending) {
    return (
      <Center py="xl">
        <Loader size="sm" />
      </Center>
    );
  }
  if (list.isError) {
    return (
      <Stack p="md" gap="sm">
        <Alert color="red" role="alert">
          {t('notifications.panel.loadFailed')}
        </Alert>
        <Button variant="light" onClick={() => void list.refetch()}>
          {t('notifications.panel.retry')}
        </Button>
      </Stack>
    );
  }
  const items = list.data.pages.flatMap((page) => page.list);
  if (items.length === 0) {
    return (
      <Center py={48} px="md">
        <Text c="dimmed" size="sm" ta="center">
          {t('notifications.panel.empty')}
        </Text>
      </Center>
    );
  }
  return (
    <Stack gap={0}>
      <Group justify="space-between" px="md" py={8}>
        <Text size="xs" c="dimmed">
          {unread ? t('notifications.panel.unreadCount', { count: unread }) : t('notifications.panel.allRead')}
        </Text>
        {!!unread && (
          <Button size="compact-sm" variant="subtle" loading={read.isPending && read.variables === 'all'} onClick={() => read.mutate('all')}>
            {t('notifications.panel.readAll')}
          </Button>
        )}
      </Group>
      <Box component="ul" aria-label={t('notifications.panel.title')} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {items.map((notification) => (
          <NotificationItem key={notification.id} notification={notification} onOpen={open} />
        ))}
      </Box>
      {list.hasNextPage && (
        <Center py="sm">
          <Button variant="subtle" size="compact-sm" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            {t('notifications.panel.loadMore')}
          </Button>
        </Center>
      )}
    </Stack>
  );
}

function NotificationItem({ notification, onOpen }: { notification: UserNotification; onOpen: (n: UserNotification) => void }) {
  const { t, i18n } = useTranslation();
  const { title, body } = notificationText(notification, i18n);
  const unread = !notification.read;
  return (
    <li data-testid="notification-item" data-unread={unread || undefined}>
      <UnstyledButton
        onClick={() => onOpen(notification)}
        w="100%"
        px="md"
        py="sm"
        style={{
          display: 'flex',
          gap: 10,
          alignItems: 'flex-start',
          borderTop: '1px solid var(--mantine-color-default-border)',
          background: unread ? 'var(--tandem-accent-soft)' : undefined,
        }}
      >
        <span
          aria-hidden="true"
          style={{
            flex: 'none',
            width: 8,
            height: 8,
            marginTop: 6,
            borderRadius: 4,
            background: unread ? 'var(--mantine-color-red-6)' : 'transparent',
          }}
        />
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Text size="sm" fw={unread ? 700 : 500} style={{ overflowWrap: 'anywhere' }}>
            {unread && <VisuallyHidden>{t('notifications.panel.unread')}</VisuallyHidden>}
            {title}
          </Text>
          {body && (
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
              {body}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {formatNotificationTime(notification.createTime, i18n.language)}
          </Text>
        </Stack>
      </UnstyledButton>
    </li>
  );
}
