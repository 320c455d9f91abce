import { ActionIcon, Alert, Anchor, Badge, Button, Group, Loader, Paper, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import {
  adminCatalogueKey,
  adminDeploymentsQuery,
  adminModelQuery,
  deleteAdminDeployment,
  saveAdminDeployment,
  testAdminDeployment,
  type SaveDeploymentInput,
} from './api.ts';
import { VIP_LEVEL_NAMES, type AdminDeployment, type DeploymentWindowStats, type TestDeploymentResult } from '../../shared/contracts/model.ts';
import { errorMessage } from '../../components/ui/error-message.ts';
import { IconArrowLeft, IconPencil, IconTrash } from '../../components/ui/icons.tsx';
import { onMutationError } from '../../components/ui/notify.ts';
import { ResourceTable } from '../ui/resource-table.tsx';
import { DeploymentForm } from './deployment-form.tsx';
import { ModelParamsSection } from './model-params.tsx';
import { TestResult } from './test-result.tsx';
import './strings.ts';
import { modelCostLabel } from './model-cost.ts';

const when = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : '');

/** /admin/models/:aiModelId: one model's deployments, their health, add/edit/test/delete. */
export function ModelPage() {
  const { t } = useTranslation();
  const { aiModelId = '' } = useParams<{ aiModelId?: string }>();
  const model = useQuery({ ...adminModelQuery(aiModelId), enabled: aiModelId !== '' });
  const deployments = useQuery({ ...adminDeploymentsQuery(aiModelId), enabled: aiModelId !== '' });
  /** The latest test result of each deployment. */
  const [tests, setTests] = useState<Record<string, TestDeploymentResult>>({});
  const { toggle, test } = useDeploymentActions(aiModelId, (d, result) => setTests((all) => ({ ...all, [d.aiModelMapId]: result })));

  const back = (
    <Anchor component={Link} href="/admin/models" size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} />
        {t('adminModels.back')}
      </Group>
    </Anchor>
  );

  if (model.isError) {
    return (
      <Stack>
        {back}
        <Alert color="red" title={t('adminModels.loadFailed')}>
          {errorMessage(model.error)}
        </Alert>
      </Stack>
    );
  }
  const m = model.data;
  const list = [...(deployments.data ?? [])].sort((a, b) => a.priority - b.priority);
  return (
    <Stack>
      {back}
      <ResourceTable<AdminDeployment, SaveDeploymentInput>
        list={deployments}
        queryKey={adminCatalogueKey}
        heading={
          <div>
            <Title order={2}>{m?.name ?? aiModelId}</Title>
            <Text size="sm" c="dimmed">
              {aiModelId}
            </Text>
          </div>
        }
        newLabel={t('adminModels.deployment.add')}
        newDisabled={!m}
        newTitle={t('adminModels.deployment.newTitle')}
        editTitle={t('adminModels.deployment.editTitle')}
        formKey={(d) => d.aiModelMapId}
        form={(slot) => <DeploymentForm {...slot} aiModelId={aiModelId} />}
        save={saveAdminDeployment}
        savedText={t('adminModels.deployment.saved')}
        remove={{
          call: (d) => deleteAdminDeployment(d.aiModelMapId),
          title: t('adminModels.deployment.deleteTitle'),
          message: (d) => t('adminModels.deployment.deleteMessage', { model: d?.upstreamModelId ?? '' }),
          confirmLabel: t('adminModels.delete'),
          cancelLabel: t('adminModels.cancel'),
          deletedText: () => t('adminModels.deployment.deleted'),
        }}
        intro={
          <>
            {m && (
              <Group gap="xs">
                <Badge variant="light">{t(`adminModels.levels.${VIP_LEVEL_NAMES[m.minVipLevel] ?? 'Free'}`)}</Badge>
                <Badge variant="light">{modelCostLabel(t, m)}</Badge>
                <Badge variant="light" color={m.online ? 'teal' : 'gray'}>
                  {m.online ? t('adminModels.online') : t('adminModels.offline')}
                </Badge>
              </Group>
            )}
            <Title order={3}>{t('adminModels.deployment.title')}</Title>
            {(model.isPending || deployments.isPending) && <Loader />}
          </>
        }
        table={({ edit, askDelete }) => (
          <>
            {deployments.data && list.length === 0 && <Alert color="yellow">{t('adminModels.deployment.none')}</Alert>}
            {list.map((d) => (
              <DeploymentCard
                key={d.aiModelMapId}
                deployment={d}
                testResult={tests[d.aiModelMapId]}
                testing={test.isPending && test.variables?.aiModelMapId === d.aiModelMapId}
                toggling={toggle.isPending}
                onToggle={() => toggle.mutate(d)}
                onTest={() => test.mutate(d)}
                onEdit={() => edit(d)}
                onDelete={() => askDelete(d)}
              />
            ))}
          </>
        )}
      />
      {m && <ModelParamsSection aiModelId={aiModelId} />}
    </Stack>
  );
}

/** The model page's own writes: switch and test a deployment; each refreshes what it changed and reports a refusal. */
function useDeploymentActions(aiModelId: string, onTested: (d: AdminDeployment, result: TestDeploymentResult) => void) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: (d: AdminDeployment) =>
      saveAdminDeployment({
        aiModelMapId: d.aiModelMapId,
        aiModelId: d.aiModelId,
        provider: d.provider,
        baseUrl: d.baseUrl,
        upstreamModelId: d.upstreamModelId,
        priority: d.priority,
        enabled: !d.enabled,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminCatalogueKey }),
    onError: onMutationError(),
  });
  const test = useMutation({
    mutationFn: (d: AdminDeployment) => testAdminDeployment({ aiModelMapId: d.aiModelMapId }),
    onSuccess: async (result, d) => {
      onTested(d, result);
      // A test updates the deployment's health (its failure is recorded like a chat's).
      await queryClient.invalidateQueries({ queryKey: adminDeploymentsQuery(aiModelId).queryKey });
    },
    onError: onMutationError(),
  });

  return { toggle, test };
}

interface DeploymentCardProps {
  deployment: AdminDeployment;
  testResult: TestDeploymentResult | undefined;
  testing: boolean;
  toggling: boolean;
  onToggle: () => void;
  onTest: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** One deployment: where it points, its key (a hint only), its switch, its actions, its health and its last test. */
function DeploymentCard({ deployment: d, testResult, testing, toggling, onToggle, onTest, onEdit, onDelete }: DeploymentCardProps) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" aria-label={t('adminModels.deployment.cardLabel', { model: d.upstreamModelId })} component="article">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <div>
            <Text fw={600}>
              {d.provider} · {d.upstreamModelId}
              {d.protocol === 'responses' && (
                <Badge ml="xs" variant="light" size="sm">
                  {t('adminModels.deployment.protocols.responses')}
                </Badge>
              )}
            </Text>
            <Text size="xs" c="dimmed">
              {d.baseUrl ?? t('adminModels.deployment.defaultUrl')} · {t('adminModels.deployment.priorityValue', { priority: d.priority })} ·{' '}
              {d.hasApiKey ? t('adminModels.deployment.keyStoredShort', { hint: d.apiKeyHint ?? '••••' }) : t('adminModels.deployment.keyNoneShort')}
            </Text>
          </div>
          <Group gap="xs" wrap="nowrap">
            <Switch
              label={t('adminModels.deployment.enabled')}
              checked={d.enabled}
              disabled={toggling}
              onChange={onToggle}
            />
            <Button size="xs" variant="light" loading={testing} onClick={onTest}>
              {t('adminModels.test.button')}
            </Button>
            <ActionIcon variant="subtle" aria-label={t('adminModels.deployment.edit')} onClick={onEdit}>
              <IconPencil size={16} />
            </ActionIcon>
            <ActionIcon variant="subtle" color="red" aria-label={t('adminModels.deployment.delete')} onClick={onDelete}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        </Group>
        <Health deployment={d} />
        {testResult && <TestResult result={testResult} />}
      </Stack>
    </Paper>
  );
}

function Health({ deployment }: { deployment: AdminDeployment }) {
  const { t } = useTranslation();
  const { health, coolingUntil } = deployment;
  const cooling = coolingUntil && Date.parse(coolingUntil) > Date.now();
  return (
    <Table withRowBorders={false} verticalSpacing={2} fz="sm" aria-label={t('adminModels.health.label')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th />
          <Table.Th>{t('adminModels.health.attempts')}</Table.Th>
          <Table.Th>{t('adminModels.health.successRate')}</Table.Th>
          <Table.Th>{t('adminModels.health.p50')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        <WindowRow label={t('adminModels.health.day')} stats={health.day} />
        <WindowRow label={t('adminModels.health.week')} stats={health.week} />
        <Table.Tr>
          <Table.Td colSpan={4}>
            {health.lastError ? (
              <Text size="sm" c="red">
                {t('adminModels.health.lastError', { when: when(health.lastErrorTime), error: health.lastError })}
              </Text>
            ) : (
              <Text size="sm" c="dimmed">
                {t('adminModels.health.noErrors')}
              </Text>
            )}
            {cooling && (
              <Text size="sm" c="orange">
                {t('adminModels.health.cooling', { until: when(coolingUntil) })}
              </Text>
            )}
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}

function WindowRow({ label, stats }: { label: string; stats: DeploymentWindowStats }) {
  const { t } = useTranslation();
  const none = t('adminModels.health.none');
  return (
    <Table.Tr>
      <Table.Td>{label}</Table.Td>
      <Table.Td>{t('adminModels.health.attemptsValue', { attempts: stats.attempts, failures: stats.failures })}</Table.Td>
      <Table.Td>{stats.successRate === null ? none : `${(stats.successRate * 100).toFixed(1)}%`}</Table.Td>
      <Table.Td>{stats.p50FirstTokenMs === null ? none : `${Math.round(stats.p50FirstTokenMs)} ms`}</Table.Td>
    </Table.Tr>
  );
}
