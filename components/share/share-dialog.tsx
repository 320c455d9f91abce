import { ActionIcon, Button, CopyButton, Group, Stack, Switch, Text, TextInput, Tooltip } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getShareList, revokeShare, shareListKey, shareSession } from './api.ts';
import type { ShareItem } from '../../shared/contracts/share.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import en from '../../locales/features/share.en.json';
import { IconCopy, IconTrash } from '../ui/icons.tsx';
import { notifySuccess, onMutationError } from '../ui/notify.ts';
import { Modal } from '../ui/overlays.tsx';
import { shareUrl } from './share-link.ts';

addEnglishStrings(en);

/** One link: its address to copy, what it holds, and revoke. */
export function ShareLinkRow({ link, showTitle = false }: { link: ShareItem; showTitle?: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => revokeShare(link.shareId),
    onSuccess: () => {
      notifySuccess(t('share.revoked'));
      void queryClient.invalidateQueries({ queryKey: shareListKey });
    },
    onError: onMutationError(t('share.revokeFailed')),
  });
  const url = shareUrl(link.path);
  return (
    <Stack gap={2} role="listitem" aria-label={url}>
      {showTitle && (
        <Text size="sm" fw={500} truncate>
          {link.sessionTitle}
        </Text>
      )}
      <Group gap={4} wrap="nowrap">
        <TextInput value={url} readOnly size="xs" style={{ flex: 1 }} aria-label={t('share.copy')} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton value={url}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('share.copied') : t('share.copy')}>
              <ActionIcon variant="subtle" aria-label={t('share.copy')} onClick={copy}>
                <IconCopy size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
        <Tooltip label={t('share.revoke')}>
          <ActionIcon variant="subtle" color="red" aria-label={t('share.revoke')} loading={revoke.isPending} onClick={() => revoke.mutate()}>
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Text size="xs" c="dimmed">
        {dayjs(link.createTime).format('YYYY-MM-DD HH:mm')} · {t('share.messages', { count: link.messageCount })}
        {link.includeImages ? ` · ${t('share.withImages')}` : ''}
      </Text>
    </Stack>
  );
}

/** The caller's live links (all of them, or one chat's). */
export function useShareLinks(chatSessionId?: string) {
  const query = useQuery({ queryKey: shareListKey, queryFn: ({ signal }) => getShareList(signal) });
  return { ...query, links: (query.data ?? []).filter((link) => !chatSessionId || link.chatSessionId === chatSessionId) };
}

/** Makes a public link to one chat (images optional), and lists and revokes that chat's links. */
export function ShareDialog({ session, onClose }: { session: { chatSessionId: string; sessionTitle: string } | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [includeImages, setIncludeImages] = useState(false);
  const { links } = useShareLinks(session?.chatSessionId);
  const create = useMutation({
    mutationFn: () => shareSession({ chatSessionId: session!.chatSessionId, includeImages }),
    onSuccess: () => {
      notifySuccess(t('share.created'));
      void queryClient.invalidateQueries({ queryKey: shareListKey });
    },
    onError: onMutationError(),
  });
  return (
    <Modal opened={!!session} onClose={onClose} title={t('share.dialogTitle', { title: session?.sessionTitle ?? '' })} size="lg">
      <Stack gap="md">
        <Text size="sm">{t('share.explain')}</Text>
        <Switch
          checked={includeImages}
          onChange={(event) => setIncludeImages(event.currentTarget.checked)}
          label={t('share.includeImages')}
          description={t('share.includeImagesHint')}
        />
        <Group justify="flex-end">
          <Button onClick={() => create.mutate()} loading={create.isPending}>
            {t('share.create')}
          </Button>
        </Group>
        {links.length > 0 && (
          <Stack gap="xs" role="list" aria-label={t('share.existing')}>
            <Text size="xs" fw={600} c="dimmed" tt="uppercase">
              {t('share.existing')}
            </Text>
            {links.map((link) => (
              <ShareLinkRow key={link.shareId} link={link} />
            ))}
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}
