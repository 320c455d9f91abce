import { Alert, Badge, Button, Chip, Group, Loader, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyPromptToMine, countPromptUse, libraryPromptsQuery } from '../../shared/api/prompt-library.ts';
import { promptTagsQuery } from '../../shared/api/prompt-tags.ts';
import type { LibraryPrompt } from '../../shared/contracts/prompt-library.ts';
import type { UserQuickFunction } from '../../shared/contracts/quick-function.ts';
import { IconCheck, IconPlus, IconSearch } from '../ui/icons.tsx';
import { notifyError, notifySuccess, onMutationError } from '../ui/notify.ts';

const PAGE = 20;

/**
 * The community's prompts in the prompt library (Prompt/GetPromptList, source community), beside the
 * recommended ones: shared by users and approved by the team, in the UI's language, by tag and words,
 * popular or new first; each names its author and how often it was used. "Use" copies its text (to
 * paste into a chat) and counts a use; "Add to my prompts" copies it into the user's own.
 */
export function CommunityPrompts({ own, onAdded }: { own: readonly UserQuickFunction[]; onAdded: (saved: UserQuickFunction) => void }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language === 'zh' ? 'zh' : 'en';
  const tags = useQuery(promptTagsQuery(language)).data ?? [];
  const [tagId, setTagId] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [sort, setSort] = useState<'popular' | 'new'>('popular');
  const [count, setCount] = useState(PAGE);
  const chosenTag = tagId && tags.some((tag) => tag.tagPromptId === tagId) ? tagId : null;
  const query = useQuery({ ...libraryPromptsQuery({ language, tagId: chosenTag, q, source: 'community', sort, count }), placeholderData: keepPreviousData });
  const [busy, setBusy] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: (prompt: LibraryPrompt) => copyPromptToMine(prompt.promptId),
    onMutate: (prompt) => setBusy(prompt.promptId),
    onSettled: () => setBusy(null),
    onSuccess: onAdded,
    onError: onMutationError((message) => t('quickFunctions.failed', { message })),
  });
  const use = async (prompt: LibraryPrompt) => {
    try {
      await navigator.clipboard.writeText(prompt.content);
    } catch {
      return notifyError(t('quickFunctions.community.copyFailed'));
    }
    notifySuccess(t('quickFunctions.community.copied', { name: prompt.title }));
    // The count is the library's business: a failure to count does not undo the copy.
    void countPromptUse(prompt.promptId).then(() => query.refetch(), () => undefined);
  };
  const added = (prompt: LibraryPrompt) => own.some((item) => item.name === prompt.title && item.template === prompt.content);
  const filtered = q !== '' || chosenTag !== null;

  return (
    <Stack gap="xs" component="section" aria-label={t('quickFunctions.community.title')}>
      <Text fw={600}>{t('quickFunctions.community.title')}</Text>
      <Text size="xs" c="dimmed">
        {t('quickFunctions.community.hint')}
      </Text>
      <Group gap="xs" wrap="wrap">
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder={t('quickFunctions.community.search')}
          aria-label={t('quickFunctions.community.search')}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setCount(PAGE);
          }}
          style={{ flex: '1 1 180px' }}
        />
        <Chip.Group
          multiple={false}
          value={sort}
          onChange={(v) => {
            setSort(v === 'new' ? 'new' : 'popular');
            setCount(PAGE);
          }}
        >
          <Group gap={6} role="radiogroup" aria-label={t('quickFunctions.community.sortLabel')}>
            <Chip value="popular" type="radio" size="xs">
              {t('quickFunctions.community.popular')}
            </Chip>
            <Chip value="new" type="radio" size="xs">
              {t('quickFunctions.community.newest')}
            </Chip>
          </Group>
        </Chip.Group>
      </Group>
      {tags.length > 0 && (
        <Chip.Group multiple={false} value={chosenTag ?? ''} onChange={(v) => setTagId(v || null)}>
          <Group gap={6} role="radiogroup" aria-label={t('quickFunctions.recommended.tagsLabel')} data-testid="community-tag-chips">
            <Chip value="" type="radio" size="xs">
              {t('quickFunctions.recommended.allTags')}
            </Chip>
            {tags.map((tag) => (
              <Chip key={tag.tagPromptId} value={tag.tagPromptId} type="radio" size="xs">
                {tag.name}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      )}
      {query.isPending ? (
        <Loader size="sm" />
      ) : query.isError ? (
        <Alert color="red" variant="light" role="alert">
          {t('quickFunctions.community.loadFailed')}
        </Alert>
      ) : query.data.list.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="community-empty">
          {filtered ? t('quickFunctions.community.noMatch') : t('quickFunctions.community.empty')}
        </Text>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
            {query.data.list.map((prompt) => (
              <CommunityCard key={prompt.promptId} prompt={prompt} done={added(prompt)} adding={busy === prompt.promptId} onUse={() => void use(prompt)} onAdd={() => add.mutate(prompt)} />
            ))}
          </SimpleGrid>
          {query.data.total > query.data.list.length && (
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                {t('quickFunctions.community.total', { shown: query.data.list.length, total: query.data.total })}
              </Text>
              <Button size="compact-sm" variant="subtle" loading={query.isFetching} onClick={() => setCount((c) => Math.min(100, c + PAGE))} disabled={count >= 100}>
                {t('quickFunctions.community.more')}
              </Button>
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}

function CommunityCard({ prompt, done, adding, onUse, onAdd }: { prompt: LibraryPrompt; done: boolean; adding: boolean; onUse: () => void; onAdd: () => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius={6} p="xs" data-testid="community-prompt">
      <Stack gap={4}>
        <Group gap={6} wrap="nowrap">
          <span aria-hidden="true">{prompt.icon && !/^[\x20-\x7e]+$/.test(prompt.icon) ? prompt.icon : '⚡'}</span>
          <Text size="sm" fw={600} truncate>
            {prompt.title}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          {prompt.authorName ? `${t('quickFunctions.community.by', { name: prompt.authorName })} · ` : ''}
          {t('quickFunctions.community.uses', { count: prompt.useCount })}
        </Text>
        {prompt.description && (
          <Text size="xs" lineClamp={2}>
            {prompt.description}
          </Text>
        )}
        <Text size="xs" c="dimmed" lineClamp={2}>
          {prompt.content}
        </Text>
        {prompt.tags.length > 0 && (
          <Group gap={4} role="group" aria-label={t('quickFunctions.recommended.tagsOf', { name: prompt.title })}>
            {prompt.tags.map((tag) => (
              <Badge key={tag.tagPromptId} size="xs" variant="light" tt="none">
                {tag.name}
              </Badge>
            ))}
          </Group>
        )}
        <Group gap="xs" justify="flex-end" wrap="wrap">
          <Button size="compact-xs" variant="default" aria-label={t('quickFunctions.community.useLabel', { name: prompt.title })} onClick={onUse}>
            {t('quickFunctions.community.use')}
          </Button>
          <Button
            size="compact-xs"
            variant={done ? 'subtle' : 'light'}
            disabled={done}
            loading={adding}
            leftSection={done ? <IconCheck size={12} /> : <IconPlus size={12} />}
            aria-label={done ? undefined : t('quickFunctions.community.addLabel', { name: prompt.title })}
            onClick={onAdd}
          >
            {done ? t('quickFunctions.community.added') : t('quickFunctions.community.add')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
