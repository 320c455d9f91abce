import { Alert, Badge, Button, Group, MultiSelect, Select, Stack, Text, TextInput, Textarea, Tooltip } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { submitPrompt } from '../../shared/api/prompt-library.ts';
import { promptTagsQuery } from '../../shared/api/prompt-tags.ts';
import type { Language } from '../../shared/contracts/common.ts';
import type { PromptSubmission, PromptSubmissionState } from '../../shared/contracts/prompt-library.ts';
import { MAX_QF_DESCRIPTION_CHARS, MAX_QF_NAME_CHARS, type UserQuickFunction } from '../../shared/contracts/quick-function.ts';
import { Modal } from '../ui/overlays.tsx';

const STATE_COLOURS: Record<PromptSubmissionState, string> = { pending: 'yellow', approved: 'teal', rejected: 'red', unpublished: 'gray' };

/** Where one of the user's own prompts stands in the library: in review, in the library, not approved (with the reason), taken down. */
export function SubmissionState({ item, submission }: { item: UserQuickFunction; submission: PromptSubmission }) {
  const { t } = useTranslation();
  const badge = (
    <Badge size="xs" variant="light" color={STATE_COLOURS[submission.state]} tt="none" aria-label={`${t('quickFunctions.share.stateOf', { name: item.name })}: ${t(`quickFunctions.share.state.${submission.state}`)}`}>
      {t(`quickFunctions.share.state.${submission.state}`)}
    </Badge>
  );
  return submission.reason ? (
    <Tooltip label={t('quickFunctions.share.reason', { reason: submission.reason })} multiline maw={280} withArrow>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}

/** The reviewer's reason, shown under a prompt that was not approved or was taken down. */
export function SubmissionReason({ submission }: { submission: PromptSubmission }) {
  const { t } = useTranslation();
  if (!submission.reason) return null;
  return (
    <Text size="xs" c="red.7" data-testid="submission-reason">
      {t('quickFunctions.share.reason', { reason: submission.reason })}
    </Text>
  );
}

/**
 * Shares one of the user's own prompts to the community library (UserPrompt/Submit): title,
 * description, tags and language, prefilled from the prompt; sharing one already shared replaces it
 * and sends it for review again. The server's refusal (too many waiting, bad text) is shown in place.
 */
export function SharePromptModal({
  item,
  submission,
  onClose,
  onShared,
}: {
  item: UserQuickFunction | null;
  submission: PromptSubmission | undefined;
  onClose: () => void;
  onShared: (saved: PromptSubmission) => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={item !== null} onClose={onClose} title={item ? t('quickFunctions.share.title', { name: item.name }) : ''} centered>
      {item && <ShareForm key={item.userQuickFunctionId} item={item} submission={submission} onClose={onClose} onShared={onShared} />}
    </Modal>
  );
}

function ShareForm({ item, submission, onClose, onShared }: { item: UserQuickFunction; submission: PromptSubmission | undefined; onClose: () => void; onShared: (saved: PromptSubmission) => void }) {
  const { t, i18n } = useTranslation();
  const uiLanguage: Language = i18n.language === 'zh' ? 'zh' : 'en';
  const tags = useQuery(promptTagsQuery(uiLanguage)).data ?? [];
  const [title, setTitle] = useState(submission?.title ?? item.name);
  const [description, setDescription] = useState(submission?.description ?? item.description);
  const [tagIds, setTagIds] = useState<string[]>(submission ? submission.tags.map((tag) => tag.tagPromptId) : item.tagIds);
  const [language, setLanguage] = useState<Language>(submission?.language ?? uiLanguage);
  const send = useMutation({
    mutationFn: () => submitPrompt({ userQuickFunctionId: item.userQuickFunctionId, title: title.trim(), description: description.trim(), tagIds, language }),
    onSuccess: onShared,
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        send.mutate();
      }}
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {submission ? t('quickFunctions.share.again_intro') : t('quickFunctions.share.intro')}
        </Text>
        <TextInput label={t('quickFunctions.share.titleField')} required maxLength={MAX_QF_NAME_CHARS} value={title} onChange={(e) => setTitle(e.currentTarget.value)} />
        <Textarea
          label={t('quickFunctions.share.description')}
          placeholder={t('quickFunctions.share.descriptionHint')}
          maxLength={MAX_QF_DESCRIPTION_CHARS}
          autosize
          minRows={2}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        {tags.length > 0 && (
          <MultiSelect
            label={t('quickFunctions.share.tags')}
            data={tags.map((tag) => ({ value: tag.tagPromptId, label: tag.name }))}
            value={tagIds.filter((id) => tags.some((tag) => tag.tagPromptId === id))}
            onChange={setTagIds}
            maxValues={10}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        <Select
          label={t('quickFunctions.share.language')}
          data={(['en', 'zh'] as const).map((value) => ({ value, label: t(`quickFunctions.share.languages.${value}`) }))}
          value={language}
          onChange={(v) => setLanguage(v === 'zh' ? 'zh' : 'en')}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
        {send.isError && (
          <Alert color="red" variant="light" role="alert">
            {send.error instanceof Error ? send.error.message : String(send.error)}
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('quickFunctions.cancel')}
          </Button>
          <Button type="submit" loading={send.isPending} disabled={!title.trim()}>
            {t('quickFunctions.share.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
