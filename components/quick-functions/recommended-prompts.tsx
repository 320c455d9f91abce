import { Alert, Badge, Button, Chip, Group, Loader, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { promptTagsQuery } from '../../shared/api/prompt-tags.ts';
import { recommendedPromptsQuery, saveUserQuickFunction } from '../../shared/api/quick-functions.ts';
import type { PromptTag } from '../../shared/contracts/prompt-tag.ts';
import type { RecommendedPrompt, UserQuickFunction } from '../../shared/contracts/quick-function.ts';
import { appliesToOf } from '../../shared/utils/applies-to.ts';
import { IconCheck, IconPlus } from '../ui/icons.tsx';
import { onMutationError } from '../ui/notify.ts';

/**
 * The operator's recommended prompts (GetAiPrompWordByRecomment) in the UI's language, browsed by tag
 * (All, then each tag some prompt carries); one click adds one to the user's own (a copy they can
 * change, with its tags). One already added (same name and content) says so.
 */
export function RecommendedPrompts({ own, onAdded }: { own: readonly UserQuickFunction[]; onAdded: (saved: UserQuickFunction) => void }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language === 'zh' ? 'zh' : 'en';
  const tags = useQuery(promptTagsQuery(language));
  const [chosen, setChosen] = useState<string | null>(null);
  // A tag that went away (deleted, or no longer carried) falls back to All.
  const tagId = chosen && tags.data?.some((tag) => tag.tagPromptId === chosen) ? chosen : null;
  const query = useQuery(recommendedPromptsQuery(language, tagId));
  const [adding, setAdding] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: (prompt: RecommendedPrompt) =>
      saveUserQuickFunction({
        name: prompt.title,
        template: prompt.content,
        icon: prompt.icon,
        category: prompt.category,
        appliesTo: appliesToOf(prompt.content),
        online: true,
        tagIds: prompt.tags.map((tag) => tag.tagPromptId),
      }),
    onMutate: (prompt) => setAdding(prompt.aiPrompWordId),
    onSettled: () => setAdding(null),
    onSuccess: onAdded,
    onError: onMutationError((message) => t('quickFunctions.failed', { message })),
  });
  const added = (prompt: RecommendedPrompt) => own.some((item) => item.name === prompt.title && item.template === prompt.content);

  return (
    <Stack gap="xs" component="section" aria-label={t('quickFunctions.recommended.title')}>
      <Text fw={600}>{t('quickFunctions.recommended.title')}</Text>
      <Text size="xs" c="dimmed">
        {t('quickFunctions.recommended.hint')}
      </Text>
      <TagChips tags={(tags.data ?? []).filter((tag) => tag.promptCount > 0 || tag.tagPromptId === tagId)} value={tagId} onChange={setChosen} />
      {query.isPending ? (
        <Loader size="sm" />
      ) : query.isError ? (
        <Alert color="red" variant="light" role="alert">
          {t('quickFunctions.recommended.loadFailed')}
        </Alert>
      ) : query.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {tagId ? t('quickFunctions.recommended.emptyTag') : t('quickFunctions.recommended.empty')}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          {query.data.map((prompt) => {
            const done = added(prompt);
            return (
              <Paper key={prompt.aiPrompWordId} withBorder radius={6} p="xs" data-testid="recommended-prompt">
                <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Group gap={6} wrap="nowrap">
                      <span aria-hidden="true">{prompt.icon || '⚡'}</span>
                      <Text size="sm" fw={600} truncate>
                        {prompt.title}
                      </Text>
                      <Badge size="xs" variant="dot" color="gray" tt="none" style={{ flexShrink: 0 }}>
                        {t(`quickFunctions.category.${prompt.category}`)}
                      </Badge>
                    </Group>
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
                  </Stack>
                  <Button
                    size="compact-xs"
                    variant={done ? 'subtle' : 'light'}
                    disabled={done}
                    loading={adding === prompt.aiPrompWordId}
                    leftSection={done ? <IconCheck size={12} /> : <IconPlus size={12} />}
                    aria-label={done ? undefined : t('quickFunctions.recommended.addLabel', { name: prompt.title })}
                    style={{ flexShrink: 0 }}
                    onClick={() => add.mutate(prompt)}
                  >
                    {done ? t('quickFunctions.recommended.added') : t('quickFunctions.recommended.add')}
                  </Button>
                </Group>
              </Paper>
            );
          })}
        </SimpleGrid>
      )}
    </Stack>
  );
}

/** One chip per tag, and All: picking one shows only the prompts carrying it. Wraps onto more lines on a narrow screen. */
function TagChips({ tags, value, onChange }: { tags: readonly PromptTag[]; value: string | null; onChange: (tagId: string | null) => void }) {
  const { t } = useTranslation();
  if (tags.length === 0) return null;
  return (
    <Chip.Group multiple={false} value={value ?? ''} onChange={(v) => onChange(v || null)}>
      <Group gap={6} role="radiogroup" aria-label={t('quickFunctions.recommended.tagsLabel')} data-testid="prompt-tag-chips">
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
  );
}
