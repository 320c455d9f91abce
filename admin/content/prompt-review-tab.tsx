import { Alert, Badge, Button, Group, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { adminContentKey, approvePromptSubmission, CONTENT_PAGE_SIZE, promptSubmissionsQuery, rejectPromptSubmission, unpublishPromptSubmission } from './api.ts';
import {
  MAX_PROMPT_REVIEW_REASON_CHARS,
  PromptSubmissionStateSchema,
  type AdminPromptSubmission,
  type PromptSubmissionState,
} from '../../shared/contracts/prompt-library.ts';
import { errorMessage } from '../../components/ui/error-message.ts';
import { notifySuccess, onMutationError } from '../../components/ui/notify.ts';
import { Modal } from '../../components/ui/overlays.tsx';
import { pagedTableProps } from '../../components/ui/paged-table.ts';
import { formatTime } from './content-format.ts';
import './strings.ts';

const STATE_COLOURS: Record<PromptSubmissionState, string> = { pending: 'yellow', approved: 'teal', rejected: 'red', unpublished: 'gray' };

/** What an operator is deciding on with a reason: a rejection (reason required) or an unpublishing (optional). */
type Asking = { kind: 'reject' | 'unpublish'; submission: AdminPromptSubmission } | null;

/**
 * The review queue of prompts users share to the community library (admin UserPrompt): waiting ones
 * first (oldest first), by state and words; approve, reject with a reason, or take an approved one down.
 * Every decision is in the audit log and notifies the author.
 */
export function PromptReviewTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [state, setState] = useState<PromptSubmissionState | null>('pending');
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [asking, setAsking] = useState<Asking>(null);
  const [viewing, setViewing] = useState<AdminPromptSubmission | null>(null);
  const list = useQuery(promptSubmissionsQuery(page, state, q));
  const done = (key: 'approved' | 'rejected' | 'unpublished') => (saved: AdminPromptSubmission) => {
    notifySuccess(t(`adminContent.promptReview.${key}`, { title: saved.title }));
    setAsking(null);
    void queryClient.invalidateQueries({ queryKey: adminContentKey });
  };
  const approve = useMutation({ mutationFn: (s: AdminPromptSubmission) => approvePromptSubmission(s.promptSubmissionId), onSuccess: done('approved'), onError: onMutationError() });
  const decide = useMutation({
    mutationFn: ({ kind, submission, reason }: { kind: 'reject' | 'unpublish'; submission: AdminPromptSubmission; reason: string }) =>
      kind === 'reject' ? rejectPromptSubmission(submission.promptSubmissionId, reason) : unpublishPromptSubmission(submission.promptSubmissionId, reason),
    onSuccess: (saved, { kind }) => done(kind === 'reject' ? 'rejected' : 'unpublished')(saved),
  });

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('adminContent.promptReview.title')}
      </Text>
      <Group align="flex-end" wrap="wrap">
        <Select
          label={t('adminContent.promptReview.state')}
          placeholder={t('adminContent.any')}
          clearable
          data={PromptSubmissionStateSchema.options.map((s) => ({ value: s, label: t(`adminContent.promptReview.states.${s}`) }))}
          value={state}
          onChange={(s) => {
            setState(s as PromptSubmissionState | null);
            setPage(1);
          }}
        />
        <TextInput
          label={t('adminContent.promptReview.search')}
          placeholder={t('adminContent.promptReview.searchHint')}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: '1 1 220px' }}
        />
      </Group>
      {list.isError && <Alert color="red">{errorMessage(list.error)}</Alert>}
      <DataTable<AdminPromptSubmission>
        aria-label={t('adminContent.tabs.prompt-review')}
        idAccessor="promptSubmissionId"
        {...pagedTableProps(list, { page, onPageChange: setPage, pageSize: CONTENT_PAGE_SIZE, emptyText: t('adminContent.empty') })}
        columns={reviewColumns(t, { view: setViewing, approve: (x) => approve.mutate(x), approving: approve.isPending ? approve.variables?.promptSubmissionId : undefined, ask: setAsking })}
      />
      <ViewDialog submission={viewing} onClose={() => setViewing(null)} />
      <ReasonDialog
        key={asking ? `${asking.kind}:${asking.submission.promptSubmissionId}` : 'closed'}
        asking={asking}
        saving={decide.isPending}
        error={decide.isError ? errorMessage(decide.error) : null}
        onCancel={() => {
          setAsking(null);
          decide.reset();
        }}
        onConfirm={(reason) => asking && decide.mutate({ ...asking, reason })}
      />
    </Stack>
  );
}

type Actions = {
  view: (s: AdminPromptSubmission) => void;
  approve: (s: AdminPromptSubmission) => void;
  /** The submission being approved, if any. */
  approving: string | undefined;
  ask: (asking: Asking) => void;
};

/** The queue's columns: when, the prompt (text, tags), language, author, state (with the reason), uses, and the decisions open to it. */
function reviewColumns(t: TFunction, act: Actions): DataTableColumn<AdminPromptSubmission>[] {
  return [
      { accessor: 'submitTime', title: t('adminContent.promptReview.submitted'), render: (s) => formatTime(s.submitTime) },
      {
        accessor: 'title',
        title: t('adminContent.promptReview.prompt'),
        render: (s) => (
          <Stack gap={2} maw={360}>
            <Text size="sm" fw={600}>
              {s.icon} {s.title}
            </Text>
            {s.description && <Text size="xs">{s.description}</Text>}
            <Text size="xs" c="dimmed" lineClamp={2}>
              {s.content}
            </Text>
            <Group gap={4}>
              {s.tags.map((tag) => (
                <Badge key={tag.tagPromptId} size="xs" variant="light" tt="none">
                  {tag.name}
                </Badge>
              ))}
            </Group>
          </Stack>
        ),
      },
      { accessor: 'language', title: t('adminContent.prompts.language'), render: (s) => t(`adminContent.languages.${s.language}`) },
      {
        accessor: 'authorName',
        title: t('adminContent.promptReview.author'),
        render: (s) => (
          <Stack gap={0}>
            <Text size="sm">{s.authorName}</Text>
            <Text size="xs" c="dimmed">
              {s.authorEmail}
            </Text>
          </Stack>
        ),
      },
      {
        accessor: 'state',
        title: t('adminContent.promptReview.state'),
        render: (s) => (
          <Stack gap={2}>
            <Badge variant="light" color={STATE_COLOURS[s.state]}>
              {t(`adminContent.promptReview.states.${s.state}`)}
            </Badge>
            {s.reason && <Text size="xs">{t('adminContent.promptReview.reasonLabel', { reason: s.reason })}</Text>}
          </Stack>
        ),
      },
      { accessor: 'useCount', title: t('adminContent.promptReview.uses'), textAlign: 'right' },
      {
        accessor: 'actions',
        title: t('adminContent.actions'),
        render: (s) => (
          <Group gap={4} wrap="nowrap">
            <Button size="compact-xs" variant="subtle" onClick={() => act.view(s)}>
              {t('adminContent.promptReview.view')}
            </Button>
            {s.state === 'pending' && (
              <>
                <Button size="compact-xs" variant="light" color="teal" loading={act.approving === s.promptSubmissionId} onClick={() => act.approve(s)}>
                  {t('adminContent.promptReview.approve')}
                </Button>
                <Button size="compact-xs" variant="subtle" color="red" onClick={() => act.ask({ kind: 'reject', submission: s })}>
                  {t('adminContent.promptReview.reject')}
                </Button>
              </>
            )}
            {s.state === 'approved' && (
              <Button size="compact-xs" variant="subtle" color="red" onClick={() => act.ask({ kind: 'unpublish', submission: s })}>
                {t('adminContent.promptReview.unpublish')}
              </Button>
            )}
          </Group>
        ),
      },
  ];
}

/** The whole text of a shared prompt. */
function ViewDialog({ submission, onClose }: { submission: AdminPromptSubmission | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={submission !== null} onClose={onClose} title={submission?.title ?? ''} centered>
      {submission && (
        <Stack gap="xs">
          {submission.description && <Text size="sm">{submission.description}</Text>}
          <Text size="xs" c="dimmed">
            {t('adminContent.promptReview.content')}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="prompt-review-content">
            {submission.content}
          </Text>
        </Stack>
      )}
    </Modal>
  );
}

/** Asks for the reason of a rejection (required) or of taking a prompt down (optional); the author reads it. */
function ReasonDialog({ asking, saving, error, onCancel, onConfirm }: { asking: Asking; saving: boolean; error: string | null; onCancel: () => void; onConfirm: (reason: string) => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const required = asking?.kind === 'reject';
  const close = () => {
    setReason('');
    setMissing(false);
    onCancel();
  };
  const title = asking ? t(required ? 'adminContent.promptReview.rejectTitle' : 'adminContent.promptReview.unpublishTitle', { title: asking.submission.title }) : '';
  return (
    <Modal opened={asking !== null} onClose={close} title={title} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (required && !reason.trim()) return setMissing(true);
          onConfirm(reason.trim());
        }}
      >
        <Stack gap="sm">
          <Textarea
            label={required ? t('adminContent.promptReview.reason') : t('adminContent.promptReview.reasonOptional')}
            description={t('adminContent.promptReview.reasonHint')}
            withAsterisk={required}
            autosize
            minRows={3}
            maxLength={MAX_PROMPT_REVIEW_REASON_CHARS}
            value={reason}
            error={missing ? t('adminContent.promptReview.reasonRequired') : undefined}
            onChange={(e) => {
              setReason(e.currentTarget.value);
              setMissing(false);
            }}
            data-autofocus
          />
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close}>
              {t('adminContent.cancel')}
            </Button>
            <Button type="submit" color="red" loading={saving}>
              {required ? t('adminContent.promptReview.reject') : t('adminContent.promptReview.unpublish')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
