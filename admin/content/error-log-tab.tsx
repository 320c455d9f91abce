import { Alert, Badge, Button, Code, Group, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminContentKey, clientErrorsQuery, CONTENT_PAGE_SIZE, resolveClientError } from './api.ts';
import { CLIENT_ERROR_SURFACES, type ClientErrorGroup, type ClientErrorSurface } from '../../shared/contracts/client-error-log.ts';
import { errorMessage } from '../../components/ui/error-message.ts';
import { notifySuccess, onMutationError } from '../../components/ui/notify.ts';
import { pagedTableProps } from '../../components/ui/paged-table.ts';
import { formatTime } from './content-format.ts';
import './strings.ts';

type State = 'open' | 'resolved' | 'all';

type FiltersProps = {
  search: string;
  surface: ClientErrorSurface | null;
  state: State;
  onSearch: (search: string) => void;
  onSurface: (surface: ClientErrorSurface | null) => void;
  onState: (state: State) => void;
};

/** Search, surface and state: each change goes back to the first page. */
function Filters({ search, surface, state, onSearch, onSurface, onState }: FiltersProps) {
  const { t } = useTranslation();
  return (
    <Group align="end">
      <TextInput label={t('adminContent.errorLog.search')} value={search} onChange={(e) => onSearch(e.currentTarget.value)} w={{ base: '100%', sm: 280 }} />
      <Select
        label={t('adminContent.errorLog.surface')}
        placeholder={t('adminContent.any')}
        clearable
        data={CLIENT_ERROR_SURFACES.map((s) => ({ value: s, label: t(`adminContent.errorLog.surfaces.${s}`) }))}
        value={surface}
        onChange={(s) => onSurface(s as ClientErrorSurface | null)}
      />
      <SegmentedControl
        aria-label={t('adminContent.errorLog.state')}
        data={(['open', 'resolved', 'all'] as const).map((s) => ({ value: s, label: t(`adminContent.errorLog.states.${s}`) }))}
        value={state}
        onChange={(s) => onState(s as State)}
      />
    </Group>
  );
}

/**
 * The surfaces' uncaught errors (docs/api.md#client-error-log), grouped by message and top stack
 * frame, last seen first: how often, since when, in which versions and surfaces. Resolving a group
 * hides it until it is reported again.
 */
export function ErrorLogTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [surface, setSurface] = useState<ClientErrorSurface | null>(null);
  const [state, setState] = useState<State>('open');
  const list = useQuery(clientErrorsQuery(page, { search: search.trim(), surface, state }));
  const resolve = useMutation({
    mutationFn: (group: ClientErrorGroup) => resolveClientError(group.clientErrorId),
    onSuccess: async () => {
      notifySuccess(t('adminContent.errorLog.resolved'));
      await queryClient.invalidateQueries({ queryKey: [...adminContentKey, 'error-log'] });
    },
    onError: onMutationError(),
  });
  const firstPage = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage(1);
  };
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('adminContent.errorLog.hint')}
      </Text>
      <Filters
        search={search}
        surface={surface}
        state={state}
        onSearch={firstPage(setSearch)}
        onSurface={firstPage(setSurface)}
        onState={firstPage(setState)}
      />
      {list.isError && <Alert color="red">{errorMessage(list.error)}</Alert>}
      <DataTable<ClientErrorGroup>
        aria-label={t('adminContent.tabs.error-log')}
        idAccessor="clientErrorId"
        {...pagedTableProps(list, { page, onPageChange: setPage, pageSize: CONTENT_PAGE_SIZE, emptyText: t('adminContent.errorLog.empty') })}
        rowExpansion={{
          content: ({ record }) => (
            <Code block m="xs" translate="no">
              {record.stack ?? t('adminContent.errorLog.noStack')}
            </Code>
          ),
        }}
        columns={[
          {
            accessor: 'message',
            title: t('adminContent.errorLog.message'),
            render: (g) => (
              <Stack gap={2} translate="no">
                <Text size="sm" style={{ wordBreak: 'break-word' }}>
                  {g.message}
                </Text>
                {g.topFrame && (
                  <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }}>
                    {g.topFrame}
                  </Text>
                )}
              </Stack>
            ),
          },
          { accessor: 'count', title: t('adminContent.errorLog.count'), textAlign: 'right' },
          {
            accessor: 'surfaces',
            title: t('adminContent.errorLog.surfacesTitle'),
            render: (g) => (
              <Group gap={4}>
                {g.surfaces.map((s) => (
                  <Badge key={s} size="xs" variant="light">
                    {t(`adminContent.errorLog.surfaces.${s}`, s)}
                  </Badge>
                ))}
              </Group>
            ),
          },
          { accessor: 'versions', title: t('adminContent.errorLog.versions'), render: (g) => g.versions.join(', ') || '—' },
          { accessor: 'browsers', title: t('adminContent.errorLog.browsers'), render: (g) => g.browsers.join(', ') || '—' },
          { accessor: 'lastSeen', title: t('adminContent.errorLog.lastSeen'), render: (g) => formatTime(g.lastSeen) },
          { accessor: 'firstSeen', title: t('adminContent.errorLog.firstSeen'), render: (g) => formatTime(g.firstSeen) },
          {
            accessor: 'actions',
            title: t('adminContent.actions'),
            render: (g) =>
              g.resolvedTime ? (
                <Text size="xs" c="dimmed">
                  {t('adminContent.errorLog.resolvedAt', { when: formatTime(g.resolvedTime) })}
                </Text>
              ) : (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  aria-label={t('adminContent.errorLog.resolveNamed', { name: g.message.slice(0, 60) })}
                  loading={resolve.isPending && resolve.variables?.clientErrorId === g.clientErrorId}
                  onClick={(e) => {
                    // The row's click opens its stack; this one only resolves.
                    e.stopPropagation();
                    resolve.mutate(g);
                  }}
                >
                  {t('adminContent.errorLog.resolve')}
                </Button>
              ),
          },
        ]}
      />
    </Stack>
  );
}
