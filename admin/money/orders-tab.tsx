import { Alert, Badge, Group, Select, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminOrdersQuery, MONEY_PAGE_SIZE, type OrderFilters } from './api.ts';
import { ORDER_SOURCES, ORDER_STATUSES, type AdminOrder } from '../../shared/contracts/admin-money.ts';
import { planDate } from '../../shared/utils/plan-level.ts';
import { errorMessage } from '../../components/ui/error-message.ts';
import { pagedTableProps } from '../../components/ui/paged-table.ts';
import { formatMoney } from '../../shared/utils/money.ts';
import { formatTime, levelKey } from './money-format.ts';
import './strings.ts';

const STATUS_COLOR: Record<AdminOrder['status'], string> = { active: 'teal', scheduled: 'blue', ended: 'gray', refunded: 'red' };

/** Orders (plan time from payments, codes and grants), newest first, with filters. */
export function OrdersTab() {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<string | null>(null);
  const [source, setSource] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [typedEmail] = useDebouncedValue(email.trim(), 300);
  const filters: OrderFilters = {
    status: (status ?? undefined) as OrderFilters['status'],
    source: (source ?? undefined) as OrderFilters['source'],
    email: typedEmail || undefined,
    from: from || undefined,
    to: to || undefined,
  };
  const orders = useQuery(adminOrdersQuery(page, filters));
  const filter = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage(1);
  };

  return (
    <Stack>
      <Group align="flex-end">
        <Select
          label={t('adminMoney.orders.status')}
          placeholder={t('adminMoney.any')}
          clearable
          data={ORDER_STATUSES.map((s) => ({ value: s, label: t(`adminMoney.orders.statuses.${s}`) }))}
          value={status}
          onChange={filter(setStatus)}
        />
        <Select
          label={t('adminMoney.orders.source')}
          placeholder={t('adminMoney.any')}
          clearable
          data={ORDER_SOURCES.map((s) => ({ value: s, label: t(`adminMoney.orders.sources.${s}`) }))}
          value={source}
          onChange={filter(setSource)}
        />
        <TextInput label={t('adminMoney.userEmail')} value={email} onChange={(e) => filter(setEmail)(e.currentTarget.value)} />
        <TextInput type="date" label={t('adminMoney.from')} value={from} onChange={(e) => filter(setFrom)(e.currentTarget.value)} />
        <TextInput type="date" label={t('adminMoney.to')} value={to} onChange={(e) => filter(setTo)(e.currentTarget.value)} />
      </Group>
      {orders.isError && <Alert color="red">{errorMessage(orders.error)}</Alert>}
      <DataTable<AdminOrder>
        aria-label={t('adminMoney.tabs.orders')}
        idAccessor="vipOrderId"
        {...pagedTableProps(orders, { page, onPageChange: setPage, pageSize: MONEY_PAGE_SIZE, emptyText: t('adminMoney.noRecords') })}
        columns={[
          { accessor: 'createTime', title: t('adminMoney.orders.created'), render: (o) => formatTime(o.createTime) },
          { accessor: 'userEmail', title: t('adminMoney.user') },
          { accessor: 'packageName', title: t('adminMoney.orders.plan'), render: (o) => `${o.packageName} (${t(levelKey(o.packageLevel))}${o.period ? `, ${t(`adminMoney.periods.${o.period}`)}` : ''})` },
          { accessor: 'source', title: t('adminMoney.orders.source'), render: (o) => t(`adminMoney.orders.sources.${o.source}`) },
          {
            accessor: 'status',
            title: t('adminMoney.orders.status'),
            render: (o) => (
              <Group gap={4}>
                <Badge variant="light" color={STATUS_COLOR[o.status]}>
                  {t(`adminMoney.orders.statuses.${o.status}`)}
                </Badge>
                {o.dispute && (
                  <Badge variant="filled" color={o.dispute === 'won' ? 'gray' : 'red'} title={t('adminMoney.orders.disputes.title')}>
                    {t(`adminMoney.orders.disputes.${o.dispute}`)}
                  </Badge>
                )}
              </Group>
            ),
          },
          { accessor: 'amount', title: t('adminMoney.orders.amount'), textAlign: 'right', render: (o) => formatMoney(o.amount, o.currency, i18n.language) },
          { accessor: 'startTime', title: t('adminMoney.orders.period'), render: (o) => `${planDate(o.startTime)} – ${planDate(o.endTime)}` },
          { accessor: 'pointsGranted', title: t('adminMoney.orders.points'), textAlign: 'right', render: (o) => (o.pointsTaken ? `${o.pointsGranted} (−${o.pointsTaken})` : o.pointsGranted) },
        ]}
      />
    </Stack>
  );
}
