import { Alert, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../components/ui/error-message.ts';
import { notifySuccess, onMutationError } from '../../components/ui/notify.ts';
import { pagedTableProps } from '../../components/ui/paged-table.ts';
import type { AdminInviteCode, AdminInviteUse } from '../../shared/contracts/admin-invites.ts';
import { adminMoneyKey, inviteCodesQuery, inviteUsesQuery, MONEY_PAGE_SIZE, setInviteCodeDisabled } from './api.ts';
import { DisableButton, DisabledBadge } from './disabled-state.tsx';
import './strings.ts';

const when = (iso: string, language: string) => new Date(iso).toLocaleString(language === 'zh' ? 'zh-CN' : 'en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** The search box of both tabs: a new search starts from the first page. */
function Search({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <TextInput
      aria-label={t('adminMoney.inviteCodes.search')}
      placeholder={t('adminMoney.inviteCodes.search')}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      w={260}
    />
  );
}

/** Every account's own invite code: its owner, sign-ups, credits and points paid; disable or enable it. */
export function InviteCodesTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [keyword, setKeyword] = useState('');
  const [status, setStatus] = useState<'all' | 'active' | 'disabled'>('all');
  const codes = useQuery(inviteCodesQuery({ page, keyword: keyword.trim() || undefined, status }));
  const toggle = useMutation({
    mutationFn: (c: AdminInviteCode) => setInviteCodeDisabled(c.ownerId, !c.disabled),
    onSuccess: async (saved) => {
      notifySuccess(saved.disabled ? t('adminMoney.inviteCodes.disabledDone') : t('adminMoney.inviteCodes.enabledDone'));
      await queryClient.invalidateQueries({ queryKey: adminMoneyKey });
    },
    onError: onMutationError(),
  });
  return (
    <Stack>
      <Group align="flex-end">
        <Search
          value={keyword}
          onChange={(value) => {
            setKeyword(value);
            setPage(1);
          }}
        />
        <SegmentedControl
          aria-label={t('adminMoney.inviteCodes.status')}
          value={status}
          onChange={(value) => {
            setStatus(value as typeof status);
            setPage(1);
          }}
          data={(['all', 'active', 'disabled'] as const).map((s) => ({ value: s, label: t(`adminMoney.inviteCodes.${s}`) }))}
        />
      </Group>
      {codes.isError && <Alert color="red">{errorMessage(codes.error)}</Alert>}
      <DataTable<AdminInviteCode>
        aria-label={t('adminMoney.tabs.inviteCodes')}
        idAccessor="ownerId"
        {...pagedTableProps(codes, { page, onPageChange: setPage, pageSize: MONEY_PAGE_SIZE, emptyText: t('adminMoney.noRecords') })}
        columns={[
          { accessor: 'inviteCode', title: t('adminMoney.inviteCodes.code'), render: (c) => <Text ff="monospace">{c.inviteCode}</Text> },
          { accessor: 'ownerEmail', title: t('adminMoney.inviteCodes.owner'), render: (c) => `${c.ownerName} <${c.ownerEmail}>` },
          { accessor: 'usedCount', title: t('adminMoney.inviteCodes.used') },
          { accessor: 'creditedCount', title: t('adminMoney.inviteCodes.credited') },
          { accessor: 'pointsPaid', title: t('adminMoney.inviteCodes.points') },
          { accessor: 'disabled', title: t('adminMoney.status'), render: (c) => <DisabledBadge disabled={c.disabled} /> },
          {
            accessor: 'actions',
            title: t('adminMoney.actions'),
            render: (c) => <DisableButton disabled={c.disabled} busy={toggle.isPending} onClick={() => toggle.mutate(c)} />,
          },
        ]}
      />
    </Stack>
  );
}

/** Who signed up with which code, when, and the reward the ledger paid the code's owner. */
export function InviteUsesTab() {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const [keyword, setKeyword] = useState('');
  const uses = useQuery(inviteUsesQuery({ page, keyword: keyword.trim() || undefined }));
  return (
    <Stack>
      <Search
        value={keyword}
        onChange={(value) => {
          setKeyword(value);
          setPage(1);
        }}
      />
      {uses.isError && <Alert color="red">{errorMessage(uses.error)}</Alert>}
      <DataTable<AdminInviteUse>
        aria-label={t('adminMoney.tabs.inviteUses')}
        idAccessor="inviteeId"
        {...pagedTableProps(uses, { page, onPageChange: setPage, pageSize: MONEY_PAGE_SIZE, emptyText: t('adminMoney.noRecords') })}
        columns={[
          { accessor: 'inviteCode', title: t('adminMoney.inviteCodes.code'), render: (u) => <Text ff="monospace">{u.inviteCode}</Text> },
          { accessor: 'ownerEmail', title: t('adminMoney.inviteCodes.owner') },
          { accessor: 'inviteeEmail', title: t('adminMoney.inviteCodes.invitee'), render: (u) => `${u.inviteeName} <${u.inviteeEmail}>` },
          { accessor: 'useTime', title: t('adminMoney.inviteCodes.useTime'), render: (u) => when(u.useTime, i18n.language) },
          {
            accessor: 'pointsPaid',
            title: t('adminMoney.inviteCodes.paid'),
            render: (u) => (u.pointsPaid === null ? t('adminMoney.inviteCodes.notPaid') : `${u.pointsPaid} · ${u.paidTime ? when(u.paidTime, i18n.language) : ''}`),
          },
        ]}
      />
    </Stack>
  );
}
