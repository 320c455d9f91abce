import { Badge, Button, Group, NumberInput, PasswordInput, Select, Switch, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminContentKey, adminSignInProvidersQuery, deleteAdminSignInProvider, saveAdminSignInProvider } from './api.ts';
import { ResourceForm, useSchemaSubmit } from '../ui/resource-form.tsx';
import { ResourceTable, type ResourceFormSlot } from '../ui/resource-table.tsx';
import { PROVIDER_KINDS, SaveSignInProviderSchema, type AdminSignInProvider, type ProviderKind, type SaveSignInProvider } from '../../shared/contracts/sign-in-providers.ts';
import { fieldMessages } from '../../components/ui/form-errors.ts';
import { ProviderIcon } from '../../components/ui/provider-icons.tsx';
import './strings.ts';

const PROBLEMS = new Set<string>();

/**
 * Sign-in providers (docs/api.md#sign-in-with-another-account): add, edit, disable and
 * remove the providers of the login page's "Continue with …" buttons. The environment's are listed
 * read-only. A client secret is sent once and stored encrypted; the console never sees it again.
 */
export function SignInProvidersTab() {
  const { t } = useTranslation();
  const providers = useQuery(adminSignInProvidersQuery());
  const callback = `${window.location.origin}/api/Provider/Callback`;
  return (
    <ResourceTable<AdminSignInProvider, SaveSignInProvider>
      list={providers}
      queryKey={adminContentKey}
      intro={
        <Text size="sm" c="dimmed">
          {t('adminContent.signIn.hint', { callback })}
        </Text>
      }
      newLabel={t('adminContent.signIn.new')}
      editTitle={t('adminContent.signIn.edit')}
      formKey={(p) => p.providerKey}
      modalSize="md"
      save={saveAdminSignInProvider}
      savedText={(saved) => t('adminContent.signIn.saved', { name: (saved as AdminSignInProvider).displayName })}
      remove={{
        call: (p) => deleteAdminSignInProvider(p.providerKey),
        title: t('adminContent.signIn.deleteTitle'),
        message: (p) => t('adminContent.signIn.deleteMessage', { name: p?.displayName ?? '' }),
        confirmLabel: t('adminContent.delete'),
        cancelLabel: t('adminContent.cancel'),
      }}
      form={(slot) => <SignInProviderForm {...slot} />}
      table={({ edit, askDelete }) => (
        <DataTable<AdminSignInProvider>
          aria-label={t('adminContent.tabs.sign-in')}
          idAccessor="providerKey"
          withTableBorder
          minHeight={160}
          fetching={providers.isFetching}
          noRecordsText={t('adminContent.empty')}
          records={providers.data ?? []}
          columns={[
            {
              accessor: 'displayName',
              title: t('adminContent.signIn.name'),
              render: (p) => (
                <Group gap={6} wrap="nowrap">
                  <ProviderIcon kind={p.kind} size={16} />
                  <span translate="no">{p.displayName}</span>
                </Group>
              ),
            },
            { accessor: 'providerKey', title: t('adminContent.signIn.key'), render: (p) => <span translate="no">{p.providerKey}</span> },
            { accessor: 'kind', title: t('adminContent.signIn.kind'), render: (p) => t(`adminContent.signIn.kinds.${p.kind}`) },
            {
              accessor: 'enabled',
              title: t('adminContent.signIn.enabled'),
              render: (p) => (
                <Badge color={p.enabled ? 'green' : 'gray'} variant="light">
                  {p.enabled ? t('adminContent.signIn.on') : t('adminContent.signIn.off')}
                </Badge>
              ),
            },
            {
              accessor: 'hasSecret',
              title: t('adminContent.signIn.clientSecret'),
              render: (p) => (p.hasSecret ? t('adminContent.signIn.secretStored') : t('adminContent.signIn.secretMissing')),
            },
            { accessor: 'source', title: t('adminContent.signIn.source'), render: (p) => t(`adminContent.signIn.${p.source}`) },
            {
              accessor: 'actions',
              title: t('adminContent.actions'),
              render: (p) =>
                p.source === 'console' ? (
                  <Group gap={4} wrap="nowrap">
                    <Button size="compact-xs" variant="subtle" aria-label={t('adminContent.editNamed', { name: p.displayName })} onClick={() => edit(p)}>
                      {t('adminContent.edit')}
                    </Button>
                    <Button size="compact-xs" variant="subtle" color="red" aria-label={t('adminContent.deleteNamed', { name: p.displayName })} onClick={() => askDelete(p)}>
                      {t('adminContent.delete')}
                    </Button>
                  </Group>
                ) : null,
            },
          ]}
        />
      )}
    />
  );
}

function SignInProviderForm({ existing, saving, onSave, onCancel }: ResourceFormSlot<AdminSignInProvider, SaveSignInProvider>) {
  const { t } = useTranslation();
  const [v, setV] = useState({
    providerKey: existing?.providerKey ?? '',
    kind: (existing?.kind ?? 'oidc') as ProviderKind,
    displayName: existing?.displayName ?? '',
    issuer: existing?.issuer ?? '',
    tenant: existing?.tenant ?? '',
    clientId: existing?.clientId ?? '',
    clientSecret: '',
    enabled: existing?.enabled ?? true,
    sortOrder: (existing?.sortOrder ?? 0) as number | string,
  });
  const set = (patch: Partial<typeof v>) => setV((old) => ({ ...old, ...patch }));
  const build = (): SaveSignInProvider => ({
    providerKey: v.providerKey,
    kind: v.kind,
    displayName: v.displayName,
    issuer: v.kind === 'oidc' ? v.issuer : null,
    tenant: v.kind === 'microsoft' ? v.tenant || null : null,
    clientId: v.clientId,
    ...(v.clientSecret ? { clientSecret: v.clientSecret } : {}),
    enabled: v.enabled,
    sortOrder: v.sortOrder === '' ? 0 : Number(v.sortOrder),
  });
  const { errors, submit } = useSchemaSubmit(SaveSignInProviderSchema, build, onSave);
  const err = fieldMessages(errors, PROBLEMS, () => t('adminContent.invalid'), () => t('adminContent.invalid'));
  return (
    <ResourceForm onSubmit={submit} saving={saving} onCancel={onCancel} cancelLabel={t('adminContent.cancel')} saveLabel={t('adminContent.save')}>
      <TextInput
        label={t('adminContent.signIn.key')}
        description={t('adminContent.signIn.keyHint')}
        required
        maxLength={40}
        disabled={!!existing}
        value={v.providerKey}
        onChange={(e) => set({ providerKey: e.currentTarget.value })}
        error={err('providerKey')}
        data-autofocus
      />
      <Select
        label={t('adminContent.signIn.kind')}
        data={PROVIDER_KINDS.map((kind) => ({ value: kind, label: t(`adminContent.signIn.kinds.${kind}`) }))}
        value={v.kind}
        allowDeselect={false}
        onChange={(kind) => kind && set({ kind: kind as ProviderKind })}
      />
      <TextInput label={t('adminContent.signIn.name')} required maxLength={60} value={v.displayName} onChange={(e) => set({ displayName: e.currentTarget.value })} error={err('displayName')} />
      {v.kind === 'oidc' && (
        <TextInput
          label={t('adminContent.signIn.issuer')}
          description={t('adminContent.signIn.issuerHint')}
          required
          maxLength={500}
          value={v.issuer}
          onChange={(e) => set({ issuer: e.currentTarget.value })}
          error={err('issuer')}
        />
      )}
      {v.kind === 'microsoft' && (
        <TextInput label={t('adminContent.signIn.tenant')} description={t('adminContent.signIn.tenantHint')} maxLength={100} value={v.tenant} onChange={(e) => set({ tenant: e.currentTarget.value })} />
      )}
      <TextInput label={t('adminContent.signIn.clientId')} required maxLength={500} value={v.clientId} onChange={(e) => set({ clientId: e.currentTarget.value })} error={err('clientId')} />
      <PasswordInput
        label={t('adminContent.signIn.clientSecret')}
        description={existing ? t('adminContent.signIn.secretKeep') : undefined}
        required={!existing}
        autoComplete="off"
        maxLength={2000}
        value={v.clientSecret}
        onChange={(e) => set({ clientSecret: e.currentTarget.value })}
        error={err('clientSecret')}
      />
      <NumberInput label={t('adminContent.signIn.sort')} allowDecimal={false} min={-1000} max={1000} value={v.sortOrder} onChange={(sortOrder) => set({ sortOrder })} />
      <Switch label={t('adminContent.signIn.enabled')} checked={v.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
    </ResourceForm>
  );
}
