import { Alert, Anchor, Badge, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import 'mantine-datatable/styles.css';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { adminAllDeploymentsQuery, adminModelsQuery } from './api.ts';
import type { TFunction } from 'i18next';
import type { DataTableColumn } from 'mantine-datatable';
import type { AdminDeploymentRow, Provider, ProviderAccount } from '../../shared/contracts/model.ts';
import './strings.ts';

const PAGE_SIZE = 20;

/** An account filter's value: provider and base URL ('' the provider's default), as one string. */
const accountValue = (a: Pick<ProviderAccount, 'provider' | 'baseUrl'>) => `${a.provider} ${a.baseUrl ?? ''}`;

/**
 * Every upstream deployment across models (GetAiModelListAll): where each points, its key as a
 * masked hint only, and how it fared over the last 24 hours; filtered by model, provider account and
 * a search. A deployment is edited on its model's page.
 */
export function DeploymentsTab() {
  const { t } = useTranslation();
  const [aiModelId, setAiModelId] = useState<string | null>(null);
  const [account, setAccount] = useState<string | null>(null);
  const [keyword, setKeyword] = useState('');
  const [debouncedKeyword] = useDebouncedValue(keyword.trim(), 300);
  const [page, setPage] = useState(1);
  const models = useQuery(adminModelsQuery());
  const [provider, ...rest] = account ? account.split(' ') : [];
  const filter = {
    page,
    count: PAGE_SIZE,
    ...(aiModelId ? { aiModelId } : {}),
    ...(account ? { provider: provider as Provider, baseUrl: rest.join(' ') } : {}),
    ...(debouncedKeyword ? { keyword: debouncedKeyword } : {}),
  };
  const list = useQuery({ ...adminAllDeploymentsQuery(filter), placeholderData: keepPreviousData });
  const accounts = list.data?.accounts ?? [];
  const changeFilter = (apply: () => void) => {
    apply();
    setPage(1);
  };

  return (
    <Stack>
      <Title order={2}>{t('adminDeployments.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('adminDeployments.hint')}
      </Text>
      <Group align="end" wrap="wrap">
        <Select
          label={t('adminDeployments.model')}
          placeholder={t('adminDeployments.allModels')}
          clearable
          searchable
          data={(models.data?.list ?? []).map((m) => ({ value: m.aiModelId, label: m.name }))}
          value={aiModelId}
          onChange={(value) => changeFilter(() => setAiModelId(value))}
          w={{ base: '100%', xs: 220 }}
        />
        <Select
          label={t('adminDeployments.account')}
          placeholder={t('adminDeployments.allAccounts')}
          clearable
          data={accounts.map((a) => ({
            value: accountValue(a),
            label: `${a.baseUrl ?? t('adminDeployments.defaultBaseUrl', { provider: a.provider })} (${a.deploymentCount})`,
          }))}
          value={account}
          onChange={(value) => changeFilter(() => setAccount(value))}
          w={{ base: '100%', xs: 300 }}
        />
        <TextInput
          label={t('adminDeployments.keyword')}
          placeholder={t('adminDeployments.keywordPlaceholder')}
          value={keyword}
          onChange={(e) => {
            const next = e.currentTarget.value;
            changeFilter(() => setKeyword(next));
          }}
          w={{ base: '100%', xs: 260 }}
        />
      </Group>
      {list.isError && <Alert color="red" title={t('adminDeployments.loadFailed')}>{list.error.message}</Alert>}
      <DataTable<AdminDeploymentRow>
        aria-label={t('adminDeployments.title')}
        idAccessor="aiModelMapId"
        withTableBorder
        minHeight={160}
        fetching={list.isFetching}
        noRecordsText={t('adminDeployments.empty')}
        records={list.data?.list ?? []}
        totalRecords={list.data?.total ?? 0}
        recordsPerPage={PAGE_SIZE}
        page={page}
        onPageChange={setPage}
        columns={deploymentColumns(t)}
      />
    </Stack>
  );
}

/** The list's columns: the model (a link to its page), where the deployment points, its key's hint and its last 24 hours. */
function deploymentColumns(t: TFunction): DataTableColumn<AdminDeploymentRow>[] {
  return [
    {
      accessor: 'modelName',
      title: t('adminDeployments.model'),
      render: (d) => (
        <Stack gap={0}>
          <Anchor component={Link} href={`/admin/models/${encodeURIComponent(d.aiModelId)}`}>
            {d.modelName}
          </Anchor>
          {!d.modelOnline && (
            <Text size="xs" c="dimmed">
              {t('adminDeployments.offlineModel')}
            </Text>
          )}
        </Stack>
      ),
    },
    { accessor: 'provider', title: t('adminDeployments.provider') },
    {
      accessor: 'baseUrl',
      title: t('adminDeployments.baseUrl'),
      render: (d) => (
        <Text size="xs" translate="no" style={{ wordBreak: 'break-all' }}>
          {d.baseUrl ?? t('adminDeployments.defaultAddress')}
        </Text>
      ),
    },
    { accessor: 'upstreamModelId', title: t('adminDeployments.upstream'), render: (d) => <span translate="no">{d.upstreamModelId}</span> },
    { accessor: 'priority', title: t('adminDeployments.priority'), textAlign: 'right' },
    {
      accessor: 'enabled',
      title: t('adminDeployments.enabled'),
      render: (d) => (
        <Badge variant="light" color={d.enabled ? 'green' : 'gray'}>
          {d.enabled ? t('adminModelTypes.yes') : t('adminModelTypes.no')}
        </Badge>
      ),
    },
    { accessor: 'apiKeyHint', title: t('adminDeployments.key'), render: (d) => <span translate="no">{d.hasApiKey ? d.apiKeyHint : t('adminDeployments.noKey')}</span> },
    {
      accessor: 'health',
      title: t('adminDeployments.health'),
      render: (d) => {
        const cooling = d.coolingUntil && Date.parse(d.coolingUntil) > Date.now();
        const { successRate, attempts } = d.health.day;
        return (
          <Group gap={4}>
            <Text size="xs">
              {successRate === null ? t('adminDeployments.noTraffic') : t('adminDeployments.successRate', { rate: (successRate * 100).toFixed(1), count: attempts })}
            </Text>
            {cooling && (
              <Badge size="xs" color="orange">
                {t('adminDeployments.cooling')}
              </Badge>
            )}
          </Group>
        );
      },
    },
  ];
}
