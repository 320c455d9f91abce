import { Alert, Group, NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CONTENT_PAGE_SIZE, pageViewsQuery, requestTimesQuery, type PageViewRecord, type RequestTimeRecord } from './api.ts';
import { errorMessage } from '../../components/ui/error-message.ts';
import { pagedTableProps } from '../../components/ui/paged-table.ts';
import { formatTime } from './content-format.ts';
import './strings.ts';

type Kind = 'requests' | 'pageViews';

/** Request times (how long clients waited for each call) and page views, filterable, newest first. */
export function RecordsTab() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<Kind>('requests');
  return (
    <Stack>
      <SegmentedControl
        w="fit-content"
        value={kind}
        onChange={(k) => setKind(k as Kind)}
        data={[
          { value: 'requests', label: t('adminContent.records.requests') },
          { value: 'pageViews', label: t('adminContent.records.pageViews') },
        ]}
      />
      {kind === 'requests' ? <RequestTimes /> : <PageViews />}
    </Stack>
  );
}

/** The filters both lists share: user id and dates; `text` is the list's own (path or address). */
function useFilters() {
  const [page, setPage] = useState(1);
  const [text, setText] = useState('');
  const [userId, setUserId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [typed] = useDebouncedValue({ text: text.trim(), userId: userId.trim() }, 300);
  const change = (set: (v: string) => void) => (event: React.ChangeEvent<HTMLInputElement>) => {
    set(event.currentTarget.value);
    setPage(1);
  };
  return {
    page,
    setPage,
    inputs: { text, userId, from, to },
    on: { text: change(setText), userId: change(setUserId), from: change(setFrom), to: change(setTo) },
    query: { userId: typed.userId || undefined, from: from || undefined, to: to || undefined },
    text: typed.text || undefined,
  };
}

/** The inputs of the shared filters: the list's own text, the user id, `children` (a list's other filters), the dates. */
function FilterRow({ filters: f, textLabel, children }: { filters: ReturnType<typeof useFilters>; textLabel: string; children?: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <Group align="flex-end">
      <TextInput label={textLabel} value={f.inputs.text} onChange={f.on.text} />
      <TextInput label={t('adminContent.records.userId')} value={f.inputs.userId} onChange={f.on.userId} />
      {children}
      <TextInput type="date" label={t('adminContent.records.from')} value={f.inputs.from} onChange={f.on.from} />
      <TextInput type="date" label={t('adminContent.records.to')} value={f.inputs.to} onChange={f.on.to} />
    </Group>
  );
}

function RequestTimes() {
  const { t } = useTranslation();
  const f = useFilters();
  const [minMs, setMinMs] = useState<number | string>('');
  const records = useQuery(requestTimesQuery(f.page, { ...f.query, path: f.text, minDurationMs: typeof minMs === 'number' ? minMs : undefined }));
  return (
    <Stack>
      <FilterRow filters={f} textLabel={t('adminContent.records.path')}>
        <NumberInput
          label={t('adminContent.records.minDuration')}
          min={0}
          allowDecimal={false}
          value={minMs}
          onChange={(v) => {
            setMinMs(v);
            f.setPage(1);
          }}
        />
      </FilterRow>
      {records.isError && <Alert color="red">{errorMessage(records.error)}</Alert>}
      <DataTable<RequestTimeRecord>
        aria-label={t('adminContent.records.requests')}
        {...pagedTableProps(records, { page: f.page, onPageChange: f.setPage, pageSize: CONTENT_PAGE_SIZE, emptyText: t('adminContent.empty') })}
        columns={[
          { accessor: 'createTime', title: t('adminContent.records.when'), render: (r) => formatTime(r.createTime) },
          { accessor: 'requestId', title: t('adminContent.records.path') },
          { accessor: 'durationMs', title: t('adminContent.records.duration'), textAlign: 'right', render: (r) => (r.durationMs === null ? '' : `${r.durationMs} ms`) },
          { accessor: 'errMsg', title: t('adminContent.records.error'), render: (r) => (r.errMsg ? <Text size="sm" c="red">{r.errMsg}</Text> : '') },
          { accessor: 'userId', title: t('adminContent.records.userId'), render: (r) => r.userId ?? '' },
        ]}
      />
    </Stack>
  );
}

function PageViews() {
  const { t } = useTranslation();
  const f = useFilters();
  const records = useQuery(pageViewsQuery(f.page, { ...f.query, url: f.text }));
  return (
    <Stack>
      <FilterRow filters={f} textLabel={t('adminContent.records.url')} />
      {records.isError && <Alert color="red">{errorMessage(records.error)}</Alert>}
      <DataTable<PageViewRecord>
        aria-label={t('adminContent.records.pageViews')}
        {...pagedTableProps(records, { page: f.page, onPageChange: f.setPage, pageSize: CONTENT_PAGE_SIZE, emptyText: t('adminContent.empty') })}
        columns={[
          { accessor: 'createTime', title: t('adminContent.records.when'), render: (r) => formatTime(r.createTime) },
          { accessor: 'currentUrl', title: t('adminContent.records.url'), ellipsis: true, width: 320 },
          { accessor: 'referer', title: t('adminContent.records.referer'), ellipsis: true, width: 200 },
          { accessor: 'clientFrom', title: t('adminContent.records.client') },
          { accessor: 'language', title: t('adminContent.records.language') },
          { accessor: 'userId', title: t('adminContent.records.userId'), render: (r) => r.userId ?? '' },
        ]}
      />
    </Stack>
  );
}
