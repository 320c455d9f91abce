import { Alert, Badge, Group, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CONTENT_PAGE_SIZE, feedbackQuery } from './api.ts';
import { FEEDBACK_REASONS, type FeedbackEntry, type FeedbackReason } from '../../shared/contracts/feedback.ts';
import { errorMessage } from '../../components/ui/error-message.ts';
import { pagedTableProps } from '../../components/ui/paged-table.ts';
import { formatTime } from './content-format.ts';
import './strings.ts';

/** Uninstall feedback, newest first, optionally of one reason. */
export function FeedbackTab() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [reason, setReason] = useState<FeedbackReason | null>(null);
  const feedback = useQuery(feedbackQuery(page, reason));
  return (
    <Stack>
      <Group>
        <Select
          label={t('adminContent.feedback.reason')}
          placeholder={t('adminContent.any')}
          clearable
          data={FEEDBACK_REASONS.map((r) => ({ value: r, label: t(`adminContent.feedback.reasons.${r}`) }))}
          value={reason}
          onChange={(r) => {
            setReason(r as FeedbackReason | null);
            setPage(1);
          }}
        />
      </Group>
      {feedback.isError && <Alert color="red">{errorMessage(feedback.error)}</Alert>}
      <DataTable<FeedbackEntry>
        aria-label={t('adminContent.tabs.feedback')}
        idAccessor="feedbackId"
        {...pagedTableProps(feedback, { page, onPageChange: setPage, pageSize: CONTENT_PAGE_SIZE, emptyText: t('adminContent.empty') })}
        columns={[
          { accessor: 'createTime', title: t('adminContent.feedback.when'), render: (f) => formatTime(f.createTime) },
          {
            accessor: 'reasons',
            title: t('adminContent.feedback.reasonsTitle'),
            render: (f) => (
              <Group gap={4}>
                {f.reasons.map((r) => (
                  <Badge key={r} size="xs" variant="light">
                    {t(`adminContent.feedback.reasons.${r}`)}
                  </Badge>
                ))}
              </Group>
            ),
          },
          { accessor: 'otherText', title: t('adminContent.feedback.text'), render: (f) => <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>{f.otherText}</Text> },
          { accessor: 'browser', title: t('adminContent.feedback.browser') },
          { accessor: 'version', title: t('adminContent.feedback.version') },
          { accessor: 'language', title: t('adminContent.prompts.language'), render: (f) => t(`adminContent.languages.${f.language}`) },
          { accessor: 'userId', title: t('adminContent.feedback.user'), render: (f) => f.userId ?? t('adminContent.feedback.visitor') },
        ]}
      />
    </Stack>
  );
}
