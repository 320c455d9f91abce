import { Alert, Anchor, Badge, Box, Button, Center, Group, Loader, Pagination, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/favourites.en.json';
import { deleteFavourite, FAVOURITE_PAGE_SIZE, favouriteListQuery, favouritesKey } from './api.ts';
import { isLoggedInAtom, tokenAtom } from '../../shared/atoms/auth.ts';
import { MAX_FAVOURITE_SEARCH_CHARS, type FavouriteListItem } from '../../shared/contracts/favourites.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { SignInPrompt } from '../app-shell/sign-in-prompt.tsx';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { IconPencil, IconSearch, IconTrash } from '../ui/icons.tsx';
import { failedWith, notifySuccess, onMutationError } from '../ui/notify.ts';
import { PageFrame } from '../ui/page-frame.tsx';
import './favourites.css';

addEnglishStrings(en);

/** The chat's own renderer, so a saved answer looks as it did in the chat. */
const MarkdownView = lazy(() => import('../ui/markdown-view.tsx').then((module) => ({ default: module.MarkdownView })));

/** Search waits this long after the last key before asking the server. */
export const SEARCH_DEBOUNCE_MS = 300;

export interface FavouritesPageProps {
  onBack: () => void;
  onEdit: (favouriteId: string) => void;
  /** Opens the chat the answer came from, at its message. */
  onOpenSource: (chatSessionId: string, chatMessageId: string) => void;
}

/**
 * Saved answers (/ans-fav/list): the user's favourites, newest saved first, 10 a page, searched on
 * the server (question and answer text) as the user types. Each shows its question, a preview of the
 * answer rendered as in the chat, the model and the time, a link back to its chat (or that the chat
 * was deleted), and edit and delete.
 */
export function FavouritesPage({ onBack, onEdit, onOpenSource }: FavouritesPageProps) {
  const { t } = useTranslation();
  const { isH5 } = usePlatform();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!loggedIn) queryClient.removeQueries({ queryKey: favouritesKey });
  }, [loggedIn, queryClient]);

  return (
    <PageFrame title={t('favourites.title')} backLabel={t('favourites.back')} onBack={onBack} narrow={isH5} width={840} backBarTestId="favourites-back-bar">
      {loggedIn ? (
        <FavouriteList onEdit={onEdit} onOpenSource={onOpenSource} />
      ) : (
        <SignInPrompt message={t('favourites.signInPrompt')} signInLabel={t('favourites.signIn')} notice="chat.notLoginTip" />
      )}
    </PageFrame>
  );
}

function FavouriteList({ onEdit, onOpenSource }: Omit<FavouritesPageProps, 'onBack'>) {
  const { t } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const [typed, setTyped] = useState('');
  const [q] = useDebouncedValue(typed.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  useEffect(() => setPage(1), [q]);
  const list = useQuery(favouriteListQuery(token, q, page));
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / FAVOURITE_PAGE_SIZE)) : 1;
  // The last item of the last page deleted: show the page before.
  useEffect(() => {
    if (list.data && page > pages) setPage(pages);
  }, [list.data, page, pages]);

  return (
    <Stack gap="md">
      <TextInput
        value={typed}
        onChange={(event) => setTyped(event.currentTarget.value)}
        placeholder={t('favourites.searchPlaceholder')}
        aria-label={t('favourites.searchLabel')}
        maxLength={MAX_FAVOURITE_SEARCH_CHARS}
        leftSection={list.isFetching && !list.isPending ? <Loader size={14} /> : <IconSearch size={16} />}
        type="search"
      />
      {list.isPending ? (
        <Center py="xl">
          <Loader size="sm" />
        </Center>
      ) : list.isError ? (
        <Stack gap="sm">
          <Alert color="red" role="alert">
            {t('favourites.loadFailed')}
          </Alert>
          <Button variant="light" onClick={() => void list.refetch()} style={{ alignSelf: 'flex-start' }}>
            {t('favourites.retry')}
          </Button>
        </Stack>
      ) : list.data.list.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl" data-testid="favourites-empty">
          {q ? t('favourites.noMatches', { q }) : t('favourites.empty')}
        </Text>
      ) : (
        <>
          <Text size="xs" c="dimmed">
            {t('favourites.total', { count: list.data.total })}
          </Text>
          {list.data.list.map((item) => (
            <FavouriteCard key={item.favouriteId} item={item} onEdit={onEdit} onOpenSource={onOpenSource} />
          ))}
          {pages > 1 && (
            <Center>
              <Pagination size="sm" total={pages} value={page} onChange={setPage} siblings={1} boundaries={1} />
            </Center>
          )}
        </>
      )}
    </Stack>
  );
}

interface FavouriteCardProps extends Omit<FavouritesPageProps, 'onBack'> {
  item: FavouriteListItem;
}

function FavouriteCard({ item, onEdit, onOpenSource }: FavouriteCardProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteFavourite(item.favouriteId),
    onSuccess: () => {
      setConfirming(false);
      notifySuccess(t('favourites.deleted'));
      // The list, and the star of the answer in its chat.
      void queryClient.invalidateQueries({ queryKey: favouritesKey });
    },
    onError: onMutationError((message) => failedWith(t('errors.deleteFailed'), message)),
  });
  const { chatSessionId, chatMessageId } = item;

  return (
    <Paper withBorder radius={6} p="md" data-testid="favourite-item">
      <Stack gap={8}>
        <Text fw={600} size="sm" lineClamp={3} style={{ overflowWrap: 'anywhere' }} data-testid="favourite-question">
          {item.question}
        </Text>
        <Box className="fav-preview" data-truncated={item.answerTruncated ? '' : undefined} data-testid="favourite-answer">
          <Suspense fallback={<div style={{ whiteSpace: 'pre-wrap' }}>{item.answer}</div>}>
            <MarkdownView text={item.answer} />
          </Suspense>
        </Box>
        {item.answerTruncated && (
          <Anchor component="button" type="button" size="xs" onClick={() => onEdit(item.favouriteId)} style={{ alignSelf: 'flex-start' }}>
            {t('favourites.showMore')}
          </Anchor>
        )}
        <Group gap={6} wrap="wrap">
          {item.modelName && (
            <Badge variant="light" color="gray" size="sm" tt="none">
              {item.modelName}
            </Badge>
          )}
          <Text size="xs" c="dimmed" title={t('favourites.answeredOn', { date: dayjs(item.answerTime).format('YYYY-MM-DD HH:mm') })}>
            {t('favourites.savedOn', { date: dayjs(item.createTime).format('YYYY-MM-DD HH:mm') })}
          </Text>
          {item.edited && (
            <Badge variant="outline" color="gray" size="xs" tt="none">
              {t('favourites.edited')}
            </Badge>
          )}
        </Group>
        <Group justify="space-between" gap="xs" wrap="wrap">
          {item.sourceExists && chatSessionId && chatMessageId ? (
            <Anchor component="button" type="button" size="sm" onClick={() => onOpenSource(chatSessionId, chatMessageId)} data-testid="favourite-source">
              {t('favourites.openSource')}
            </Anchor>
          ) : (
            <Badge variant="light" color="orange" size="sm" tt="none" data-testid="favourite-source-deleted">
              {t('favourites.sourceDeleted')}
            </Badge>
          )}
          <Group gap={4}>
            <Button size="compact-sm" variant="subtle" leftSection={<IconPencil size={14} />} onClick={() => onEdit(item.favouriteId)}>
              {t('favourites.edit')}
            </Button>
            <Button size="compact-sm" variant="subtle" color="red" leftSection={<IconTrash size={14} />} onClick={() => setConfirming(true)}>
              {t('favourites.delete')}
            </Button>
          </Group>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={t('favourites.deleteTitle')}
        message={t('favourites.deleteConfirm')}
        confirmLabel={t('favourites.delete')}
        cancelLabel={t('favourites.cancel')}
        danger
        loading={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirming(false)}
      />
    </Paper>
  );
}
