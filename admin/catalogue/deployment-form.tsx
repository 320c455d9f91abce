import { Alert, Button, Group, NumberInput, PasswordInput, Select, Switch, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { testAdminDeployment, type SaveDeploymentInput } from './api.ts';
import { DEPLOYMENT_PROTOCOLS, PROVIDERS, RESPONSES_PROVIDERS, SaveDeploymentSchema, type AdminDeployment, type DeploymentProtocol, type Provider } from '../../shared/contracts/model.ts';
import { onMutationError } from '../../components/ui/notify.ts';
import { ResourceForm, useSchemaSubmit } from '../ui/resource-form.tsx';
import type { ResourceFormSlot } from '../ui/resource-table.tsx';
import { TestResult } from './test-result.tsx';
import './strings.ts';

interface DeploymentFormValues {
  provider: Provider;
  /** Chat completions or the Responses API (OpenAI-style providers only). */
  protocol: DeploymentProtocol;
  baseUrl: string;
  upstreamModelId: string;
  /** A new key; empty keeps the stored one (unless removeKey). */
  apiKey: string;
  /** The operator chose "Remove key": the stored key goes when saved. */
  removeKey: boolean;
  priority: number | string;
  enabled: boolean;
}

function deploymentFormValues(deployment: AdminDeployment | null): DeploymentFormValues {
  return {
    provider: deployment?.provider ?? 'openai-compatible',
    protocol: deployment?.protocol ?? 'chat',
    baseUrl: deployment?.baseUrl ?? '',
    upstreamModelId: deployment?.upstreamModelId ?? '',
    apiKey: '',
    removeKey: false,
    priority: deployment?.priority ?? 0,
    enabled: deployment?.enabled ?? true,
  };
}

/**
 * What the form sends for the key: a typed key; '' only when "Remove key" was chosen; nothing at
 * all otherwise, so the stored key stays (the key is write-only: the form never had it to send back).
 */
export function apiKeyField(values: Pick<DeploymentFormValues, 'apiKey' | 'removeKey'>): { apiKey?: string } {
  if (values.removeKey) return { apiKey: '' };
  const key = values.apiKey.trim();
  return key ? { apiKey: key } : {};
}

/**
 * The body of AiModelMap/Save for the form's values (checked against SaveDeploymentSchema when
 * submitted, and sent as built: the parsed body would carry apiKey: undefined keys and defaults).
 */
function deploymentBody(values: DeploymentFormValues, aiModelId: string, existing: AdminDeployment | null): SaveDeploymentInput {
  return {
    ...(existing ? { aiModelMapId: existing.aiModelMapId } : {}),
    aiModelId,
    provider: values.provider,
    // Only OpenAI-style providers speak the Responses API; the others always chat.
    protocol: RESPONSES_PROVIDERS.includes(values.provider) ? values.protocol : 'chat',
    baseUrl: values.baseUrl.trim() || null,
    upstreamModelId: values.upstreamModelId,
    priority: values.priority === '' ? Number.NaN : Number(values.priority),
    enabled: values.enabled,
    ...apiKeyField(values),
  };
}

/** Adds or edits a deployment (`existing` null: a new one). The key is entered once and never shown again. */
export function DeploymentForm({ aiModelId, existing: deployment, saving, onSave, onCancel: onClose }: ResourceFormSlot<AdminDeployment, SaveDeploymentInput> & { aiModelId: string }) {
  const { t } = useTranslation();
  const [values, setValues] = useState(() => deploymentFormValues(deployment));
  const { errors, submit } = useSchemaSubmit(SaveDeploymentSchema, () => deploymentBody(values, aiModelId, deployment), onSave);
  const set = <K extends keyof DeploymentFormValues>(key: K, value: DeploymentFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const error = (field: string) => (errors[field] ? t(`adminModels.deployment.invalid.${field}`, { defaultValue: t('adminModels.form.invalid.generic') }) : undefined);

  const test = useMutation({
    mutationFn: () =>
      testAdminDeployment({
        ...(deployment ? { aiModelMapId: deployment.aiModelMapId } : {}),
        provider: values.provider,
        protocol: RESPONSES_PROVIDERS.includes(values.provider) ? values.protocol : 'chat',
        baseUrl: values.baseUrl.trim() || null,
        upstreamModelId: values.upstreamModelId.trim(),
        ...apiKeyField(values),
      }),
    onError: onMutationError(),
  });

  const stored = deployment?.hasApiKey ?? false;
  return (
    <ResourceForm
      onSubmit={submit}
      saving={saving}
      onCancel={onClose}
      cancelLabel={t('adminModels.cancel')}
      saveLabel={t('adminModels.save')}
      label={t('adminModels.deployment.formLabel')}
      actions={
        <Button variant="default" onClick={() => test.mutate()} loading={test.isPending} disabled={!values.upstreamModelId.trim()}>
          {t('adminModels.deployment.testSettings')}
        </Button>
      }
      footer={
        <Text size="xs" c="dimmed">
          {t('adminModels.deployment.keyNote')}
        </Text>
      }
    >
      <Select
        label={t('adminModels.deployment.provider')}
        data={PROVIDERS.map((p) => ({ value: p, label: p }))}
        value={values.provider}
        onChange={(value) => value && set('provider', value as Provider)}
        allowDeselect={false}
      />
      {RESPONSES_PROVIDERS.includes(values.provider) && (
        <Select
          label={t('adminModels.deployment.protocol')}
          description={t('adminModels.deployment.protocolHint')}
          data={DEPLOYMENT_PROTOCOLS.map((p) => ({ value: p, label: t(`adminModels.deployment.protocols.${p}`) }))}
          value={values.protocol}
          onChange={(value) => value && set('protocol', value as DeploymentProtocol)}
          allowDeselect={false}
        />
      )}
      <TextInput
        label={t('adminModels.deployment.baseUrl')}
        description={t('adminModels.deployment.baseUrlHint')}
        value={values.baseUrl}
        onChange={(e) => set('baseUrl', e.currentTarget.value)}
        error={error('baseUrl')}
      />
      <TextInput
        label={t('adminModels.deployment.upstreamModelId')}
        required
        value={values.upstreamModelId}
        onChange={(e) => set('upstreamModelId', e.currentTarget.value)}
        error={error('upstreamModelId')}
      />
      <PasswordInput
        visibilityToggleButtonProps={{ 'aria-label': t('common.showPassword') }}
        label={t('adminModels.deployment.apiKey')}
        description={
          values.removeKey
            ? t('adminModels.deployment.keyWillGo')
            : stored
              ? t('adminModels.deployment.keyStored', { hint: deployment?.apiKeyHint ?? '••••' })
              : t('adminModels.deployment.keyNone')
        }
        value={values.apiKey}
        disabled={values.removeKey}
        autoComplete="new-password"
        onChange={(e) => set('apiKey', e.currentTarget.value)}
        error={error('apiKey')}
      />
      {stored && (
        <Group>
          <Button size="xs" variant="light" color={values.removeKey ? 'gray' : 'red'} onClick={() => setValues((v) => ({ ...v, removeKey: !v.removeKey, apiKey: '' }))}>
            {values.removeKey ? t('adminModels.deployment.keepKey') : t('adminModels.deployment.removeKey')}
          </Button>
        </Group>
      )}
      <Group grow align="flex-end">
        <NumberInput
          label={t('adminModels.deployment.priority')}
          description={t('adminModels.deployment.priorityHint')}
          allowDecimal={false}
          min={-1000}
          max={1000}
          value={values.priority}
          onChange={(v) => set('priority', v)}
          error={error('priority')}
        />
        <Switch label={t('adminModels.deployment.enabled')} checked={values.enabled} onChange={(e) => set('enabled', e.currentTarget.checked)} />
      </Group>
      {errors._ && <Alert color="red">{t('adminModels.form.invalid.generic')}</Alert>}
      {test.data && <TestResult result={test.data} />}
    </ResourceForm>
  );
}
