import { Alert, Badge, Group, Select, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminSubscriptionsQuery, MONEY_PAGE_SIZE, type SubscriptionFilters } from './api.ts';
import { SUBSCRIPTION_STATUSES, type AdminSubscription } from '../../shared/contracts/admin-money.ts';
import { planDate } from '../../shared/utils/plan-level.ts';
import { errorMessage } from '../../components/ui/error-message.ts';
import { pagedTableProps } from '../../components/ui/paged-table.ts';
import { formatTime, levelKey } from './money-format.ts';
import './strings.ts';

/** Stripe subscriptions, most recently changed first. */
export function SubscriptionsTab() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [typedEmail] = useDebouncedValue(email.trim(), 300);
  const filters: SubscriptionFilters = { status: (status ?? undefined) as SubscriptionFilters['status'], email: typedEmail || undefined };
  const subscriptions = useQuery(adminSubscriptionsQuery(page, filters));

  return (
    <Stack>
      <Group align="flex-end">
        <Select
          label={t('adminMoney.subscriptions.status')}
          placeholder={t('adminMoney.any')}
          clearable
          data={SUBSCRIPTION_STATUSES.map((s) => ({ value: s, label: t(`adminMoney.subscriptions.statuses.${s}`) }))}
          value={status}
          onChange={(v) => {
            setStatus(v);
            setPage(1);
          }}
        />
        <TextInput label={t('adminMoney.userEmail')} value={email} onChange={(e) => {
            setEmail(e.currentTarget.value);
            setPage(1);
          }} />
      </Group>
      {subscriptions.isError && <Alert color="red">{errorMessage(subscriptions.error)}</Alert>}
      <DataTable<AdminSubscription>
        aria-label={t('adminMoney.tabs.subscriptions')}
        idAccessor="subscriptionId"
        {...pagedTableProps(subscriptions, { page, onPageChange: setPage, pageSize: MONEY_PAGE_SIZE, emptyText: t('adminMoney.noRecords') })}
        columns={[
          { accessor: 'userEmail', title: t('adminMoney.user') },
          {
            accessor: 'packageName',
            title: t('adminMoney.orders.plan'),
            render: (s) => `${s.packageName ?? s.packageId}${s.level !== null ? ` (${t(levelKey(s.level))})` : ''}${s.period ? `, ${t(`adminMoney.periods.${s.period}`)}` : ''}`,
          },
          {
            accessor: 'status',
            title: t('adminMoney.subscriptions.status'),
            render: (s) => (
              <Badge variant="light" color={s.status === 'active' || s.status === 'trialing' ? 'teal' : 'gray'}>
                {t(`adminMoney.subscriptions.statuses.${s.status}`)}
              </Badge>
            ),
          },
          { accessor: 'currentPeriodEnd', title: t('adminMoney.subscriptions.periodEnd'), render: (s) => planDate(s.currentPeriodEnd) },
          { accessor: 'cancelAtPeriodEnd', title: t('adminMoney.subscriptions.cancelAtPeriodEnd'), render: (s) => (s.cancelAtPeriodEnd ? t('adminMoney.yes') : t('adminMoney.no')) },
          { accessor: 'subscriptionId', title: t('adminMoney.subscriptions.id') },
          { accessor: 'updateTime', title: t('adminMoney.subscriptions.updated'), render: (s) => formatTime(s.updateTime) },
        ]}
      />
    </Stack>
  );
}
