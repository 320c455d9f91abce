import { Badge, Button, Group, NumberInput, Switch, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import 'mantine-datatable/styles.css';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminCatalogueKey, adminModelTypesQuery, deleteAdminModelType, saveAdminModelType, type SaveModelTypeInput } from './api.ts';
import { ResourceForm, useSchemaSubmit } from '../ui/resource-form.tsx';
import { ResourceTable, type ResourceFormSlot } from '../ui/resource-table.tsx';
import { AdminSaveModelTypeBodySchema, MAX_MODEL_TYPE_NAME_CHARS, type AdminModelType } from '../../shared/contracts/model-type.ts';
import { fieldMessages } from '../../components/ui/form-errors.ts';
import './strings.ts';

const PROBLEMS = new Set(['modelTypeNameRequired', 'modelTypeNameTooLong', 'modelTypeIdInvalid']);

/**
 * The catalogue's model types (AiModelType): each named in English and Chinese, in order, shown to
 * users or hidden. Built-in ones and ones a model still has cannot be deleted (the server says so too).
 */
export function ModelTypesTab() {
  const { t, i18n } = useTranslation();
  const types = useQuery(adminModelTypesQuery());
  const nameOf = (type: AdminModelType) => (i18n.language === 'zh' ? type.nameZh : type.nameEn);
  return (
    <ResourceTable<AdminModelType, SaveModelTypeInput>
      list={types}
      queryKey={adminCatalogueKey}
      heading={<Title order={2}>{t('adminModelTypes.title')}</Title>}
      intro={
        <Text size="sm" c="dimmed">
          {t('adminModelTypes.hint')}
        </Text>
      }
      newLabel={t('adminModelTypes.new')}
      editTitle={t('adminModelTypes.edit')}
      formKey={(type) => type.aiModelTypeId}
      modalSize="md"
      save={saveAdminModelType}
      savedText={(saved) => t('adminModelTypes.saved', { name: nameOf(saved as AdminModelType) })}
      remove={{
        call: (type) => deleteAdminModelType(type.aiModelTypeId),
        title: t('adminModelTypes.deleteTitle'),
        message: (type) => t('adminModelTypes.deleteMessage', { name: type ? nameOf(type) : '' }),
        confirmLabel: t('adminModelTypes.delete'),
        cancelLabel: t('adminModelTypes.cancel'),
      }}
      form={(slot) => <ModelTypeForm {...slot} />}
      table={({ edit, askDelete }) => (
        <DataTable<AdminModelType>
          aria-label={t('adminModelTypes.title')}
          idAccessor="aiModelTypeId"
          withTableBorder
          minHeight={160}
          fetching={types.isFetching}
          noRecordsText={t('adminModelTypes.empty')}
          records={types.data ?? []}
          columns={[
            { accessor: 'aiModelTypeId', title: t('adminModelTypes.id'), render: (type) => <span translate="no">{type.aiModelTypeId}</span> },
            { accessor: 'nameEn', title: t('adminModelTypes.nameEn'), render: (type) => <span translate="no">{type.nameEn}</span> },
            { accessor: 'nameZh', title: t('adminModelTypes.nameZh'), render: (type) => <span translate="no">{type.nameZh}</span> },
            { accessor: 'sort', title: t('adminModelTypes.sort'), textAlign: 'right' },
            {
              accessor: 'enabled',
              title: t('adminModelTypes.enabled'),
              render: (type) => (
                <Badge variant="light" color={type.enabled ? 'green' : 'gray'}>
                  {type.enabled ? t('adminModelTypes.yes') : t('adminModelTypes.no')}
                </Badge>
              ),
            },
            { accessor: 'builtIn', title: t('adminModelTypes.builtIn'), render: (type) => (type.builtIn ? t('adminModelTypes.yes') : '') },
            { accessor: 'modelCount', title: t('adminModelTypes.modelCount'), textAlign: 'right' },
            {
              accessor: 'actions',
              title: t('adminModelTypes.actions'),
              render: (type) => {
                const blocked = type.builtIn ? t('adminModelTypes.builtInNoDelete') : type.modelCount > 0 ? t('adminModelTypes.inUseNoDelete', { count: type.modelCount }) : null;
                return (
                  <Group gap={4} wrap="nowrap">
                    <Button size="compact-xs" variant="subtle" aria-label={t('adminModelTypes.editNamed', { name: nameOf(type) })} onClick={() => edit(type)}>
                      {t('adminModelTypes.edit_button')}
                    </Button>
                    <Tooltip label={blocked} disabled={!blocked}>
                      <span>
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          color="red"
                          disabled={!!blocked}
                          aria-label={t('adminModelTypes.deleteNamed', { name: nameOf(type) })}
                          onClick={() => askDelete(type)}
                        >
                          {t('adminModelTypes.delete')}
                        </Button>
                      </span>
                    </Tooltip>
                  </Group>
                );
              },
            },
          ]}
        />
      )}
    />
  );
}

function ModelTypeForm({ existing, saving, onSave, onCancel }: ResourceFormSlot<AdminModelType, SaveModelTypeInput>) {
  const { t } = useTranslation();
  const [v, setV] = useState({
    aiModelTypeId: existing?.aiModelTypeId ?? '',
    nameEn: existing?.nameEn ?? '',
    nameZh: existing?.nameZh ?? '',
    sort: (existing?.sort ?? '') as number | string,
    enabled: existing?.enabled ?? true,
  });
  const set = (patch: Partial<typeof v>) => setV((old) => ({ ...old, ...patch }));
  const build = (): SaveModelTypeInput => ({
    ...(existing ? { aiModelTypeId: existing.aiModelTypeId } : v.aiModelTypeId.trim() ? { aiModelTypeId: v.aiModelTypeId } : {}),
    nameEn: v.nameEn,
    nameZh: v.nameZh,
    enabled: v.enabled,
    // Empty: after the others (new) or where it was (edit).
    ...(v.sort === '' ? {} : { sort: Number(v.sort) }),
  });
  const { errors, submit } = useSchemaSubmit(AdminSaveModelTypeBodySchema, build, onSave, { sendParsed: true });
  const err = fieldMessages(errors, PROBLEMS, (code) => t(`adminModelTypes.problems.${code}`, { max: MAX_MODEL_TYPE_NAME_CHARS }), () => t('adminModelTypes.invalid'));
  return (
    <ResourceForm onSubmit={submit} saving={saving} onCancel={onCancel} cancelLabel={t('adminModelTypes.cancel')} saveLabel={t('adminModelTypes.save')}>
      {!existing && (
        <TextInput
          label={t('adminModelTypes.id')}
          description={t('adminModelTypes.idHint')}
          maxLength={32}
          value={v.aiModelTypeId}
          onChange={(e) => set({ aiModelTypeId: e.currentTarget.value })}
          error={err('aiModelTypeId')}
        />
      )}
      <TextInput label={t('adminModelTypes.nameEn')} required maxLength={MAX_MODEL_TYPE_NAME_CHARS} value={v.nameEn} onChange={(e) => set({ nameEn: e.currentTarget.value })} error={err('nameEn')} data-autofocus />
      <TextInput label={t('adminModelTypes.nameZh')} required maxLength={MAX_MODEL_TYPE_NAME_CHARS} value={v.nameZh} onChange={(e) => set({ nameZh: e.currentTarget.value })} error={err('nameZh')} />
      <NumberInput label={t('adminModelTypes.sort')} description={t('adminModelTypes.sortHint')} min={0} allowDecimal={false} value={v.sort} onChange={(sort) => set({ sort })} error={err('sort')} />
      <Switch label={t('adminModelTypes.enabled')} checked={v.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
    </ResourceForm>
  );
}
