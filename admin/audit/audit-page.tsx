import { Alert, Badge, Button, Code, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import 'mantine-datatable/styles.css';
import { useMemo, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { AUDIT_PAGE_SIZE, auditListQuery, type AuditFilters } from './api.ts';
import type { AuditEntry } from '../../shared/contracts/audit.ts';
import { pagedTableProps } from '../../components/ui/paged-table.ts';
import { jsonDiff, showValue, type DiffRow } from './json-diff.ts';
import en from '../../locales/features/admin-audit.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';

addEnglishStrings(en);

type Draft = { actorEmail: string; action: string; targetType: string; targetId: string; from: string; to: string };
const EMPTY: Draft = { actorEmail: '', action: '', targetType: '', targetId: '', from: '', to: '' };

const TARGET_TYPE = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;

export type DraftProblems = Partial<Record<keyof Draft, 'fromAfterTo' | 'targetTypeInvalid'>>;

/** What the filters typed so far would be refused for (nothing is sent while one is). */
export function draftProblems(draft: Draft): DraftProblems {
  const problems: DraftProblems = {};
  if (draft.targetType.trim() && !TARGET_TYPE.test(draft.targetType.trim())) problems.targetType = 'targetTypeInvalid';
  if (draft.from && draft.to && draft.from > draft.to) problems.from = 'fromAfterTo';
  return problems;
}

/** The list's query from the filters: trimmed, empty ones left out. */
export function auditFilters(draft: Draft): AuditFilters {
  const value = (s: string) => s.trim() || undefined;
  return {
    actorEmail: value(draft.actorEmail),
    action: value(draft.action),
    targetType: value(draft.targetType),
    targetId: value(draft.targetId),
    from: value(draft.from),
    to: value(draft.to),
  };
}

/** /admin/audit: the log of every admin write, filtered by who, what, on what and when; read-only. */
export function AuditPage() {
  const { t, i18n } = useTranslation();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [debounced] = useDebouncedValue(draft, 300);
  const [page, setPage] = useState(1);
  const problems = draftProblems(draft);
  const valid = Object.keys(draftProblems(debounced)).length === 0;
  // While a filter is refused, the last accepted one stays in force.
  const [applied, setApplied] = useState<AuditFilters>({});
  const next = auditFilters(debounced);
  if (valid && JSON.stringify(next) !== JSON.stringify(applied)) {
    setApplied(next);
    setPage(1);
  }
  const log = useQuery(auditListQuery(page, applied));
  const dateTime = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' }), [i18n.language]);

  // Action and target type take ids (User/GrantPoints, user), the same in every language: translate="no".
  const field = (name: keyof Draft, label: string, extra: { placeholder?: string; type?: string; translate?: 'no' } = {}) => (
    <TextInput
      size="xs"
      label={label}
      value={draft[name]}
      maxLength={254}
      error={problems[name] ? t(`adminAudit.filters.${problems[name]}`) : undefined}
      onChange={(event) => {
        const value = event.currentTarget.value;
        setDraft((current) => ({ ...current, [name]: value }));
      }}
      {...extra}
    />
  );

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2}>{t('adminAudit.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('adminAudit.intro')}
        </Text>
      </Stack>
      <Paper withBorder radius="md" p="sm" role="search" aria-label={t('adminAudit.filters.label')}>
        <SimpleGrid cols={{ base: 2, md: 3, xl: 6 }} spacing="sm">
          {field('actorEmail', t('adminAudit.filters.actor'))}
          {field('action', t('adminAudit.filters.action'), { placeholder: t('adminAudit.filters.actionPlaceholder'), translate: 'no' })}
          {field('targetType', t('adminAudit.filters.targetType'), { placeholder: t('adminAudit.filters.targetTypePlaceholder'), translate: 'no' })}
          {field('targetId', t('adminAudit.filters.targetId'))}
          {field('from', t('adminAudit.filters.from'), { type: 'date' })}
          {field('to', t('adminAudit.filters.to'), { type: 'date' })}
        </SimpleGrid>
        <Group justify="flex-end" mt="xs">
          <Button size="xs" variant="subtle" onClick={() => setDraft(EMPTY)} disabled={JSON.stringify(draft) === JSON.stringify(EMPTY)}>
            {t('adminAudit.filters.clear')}
          </Button>
        </Group>
      </Paper>
      {log.isError && (
        <Alert color="red" role="alert">
          {t('adminAudit.loadFailed', { message: log.error.message })}
        </Alert>
      )}
      <DataTable<AuditEntry>
        {...pagedTableProps(log, { page, onPageChange: setPage, pageSize: AUDIT_PAGE_SIZE, emptyText: t('adminAudit.empty') })}
        aria-label={t('adminAudit.title')}
        borderRadius="md"
        highlightOnHover
        idAccessor="id"
        paginationText={({ from, to, totalRecords }: { from: number; to: number; totalRecords: number }) => t('adminAudit.pagination', { from, to, total: totalRecords })}
        rowExpansion={{ allowMultiple: true, content: ({ record }) => <AuditDiff entry={record} /> }}
        columns={[
          { accessor: 'createTime', title: t('adminAudit.columns.time'), render: (e) => dateTime.format(new Date(e.createTime)) },
          { accessor: 'actorEmail', title: t('adminAudit.columns.actor') },
          {
            accessor: 'action',
            title: t('adminAudit.columns.action'),
            // The action by its name; its id (what the Action filter takes) under it.
            render: (e) => (
              <Stack gap={2}>
                <Text size="sm">{actionName(t, e.action)}</Text>
                <Code translate="no" fz="xs">
                  {e.action}
                </Code>
              </Stack>
            ),
          },
          {
            accessor: 'targetId',
            title: t('adminAudit.columns.target'),
            render: (e) => (
              <Group gap={6} wrap="nowrap">
                <Badge size="sm" variant="light" tt="none">
                  {targetName(t, e.targetType)}
                </Badge>
                {e.targetId === null ? <Text size="sm">{t('adminAudit.noTarget')}</Text> : <Text size="sm" translate="no">{e.targetId}</Text>}
              </Group>
            ),
          },
        ]}
      />
    </Stack>
  );
}

/** An audited action (User/GrantPoints) by its name in the reader's language; an unknown one by its id. */
function actionName(t: TFunction, action: string): string {
  return t(`adminAudit.actions.${action.replace('/', '.')}`, { defaultValue: action });
}

/** A target type (redeemBatch) by its name in the reader's language; an unknown one as it is. */
function targetName(t: TFunction, targetType: string): string {
  return t(`adminAudit.targets.${targetType}`, { defaultValue: targetType });
}

const KIND_COLOR: Record<DiffRow['kind'], string> = { changed: 'yellow', added: 'teal', removed: 'red' };

/** An expanded row: the fields that differ, then the raw before and after. */
function AuditDiff({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const rows = useMemo(() => jsonDiff(entry.before, entry.after), [entry]);
  return (
    <Stack gap="xs" p="sm" role="region" aria-label={t('adminAudit.diff.title')}>
      <Group gap="md">
        {[
          [t('adminAudit.filters.action'), entry.action],
          [t('adminAudit.filters.targetType'), entry.targetType],
        ].map(([label, id]) => (
          <Text key={label} size="xs" c="dimmed">
            {t('adminAudit.diff.idLabel', { label })}
            <Code translate="no">{id}</Code>
          </Text>
        ))}
      </Group>
      {(entry.before === null || entry.before === undefined) && (
        <Text size="xs" c="dimmed">
          {t('adminAudit.diff.noBefore')}
        </Text>
      )}
      {rows.length === 0 ? (
        <Text size="sm">{t('adminAudit.diff.none')}</Text>
      ) : (
        <Table withTableBorder striped fz="xs" layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w="30%">{t('adminAudit.diff.field')}</Table.Th>
              <Table.Th>{t('adminAudit.diff.before')}</Table.Th>
              <Table.Th>{t('adminAudit.diff.after')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.path} data-kind={row.kind}>
                <Table.Td>
                  <Badge size="xs" color={KIND_COLOR[row.kind]} variant="dot" tt="none">
                    {row.path}
                  </Badge>
                </Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{row.kind === 'added' ? t('adminAudit.diff.absent') : showValue(row.before)}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{row.kind === 'removed' ? t('adminAudit.diff.absent') : showValue(row.after)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <details>
        <summary>
          <Text size="xs" span>
            {t('adminAudit.diff.raw')}
          </Text>
        </summary>
        <SimpleGrid cols={2} spacing="xs">
          <Code block>{JSON.stringify(entry.before, null, 2) ?? 'null'}</Code>
          <Code block>{JSON.stringify(entry.after, null, 2) ?? 'null'}</Code>
        </SimpleGrid>
      </details>
    </Stack>
  );
}
