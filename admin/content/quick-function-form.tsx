import { Group, MultiSelect, Select, SimpleGrid, Switch, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SaveQuickFunctionInput } from './api.ts';
import { AdminSaveQuickFunctionBodySchema, AppliesToSchema, type AdminQuickFunction, type AppliesTo } from '../../shared/contracts/quick-function.ts';
import { fieldMessages } from '../../components/ui/form-errors.ts';
import { ResourceForm, useSchemaSubmit } from '../ui/resource-form.tsx';
import type { ResourceFormSlot } from '../ui/resource-table.tsx';
import { CategorySelect } from './category-select.tsx';
import { possibleParents } from './tree-order.ts';
import './strings.ts';

const PROBLEMS = new Set(['promptNameRequired', 'promptContentRequired', 'promptAppliesToRequired']);

/** Creates or edits a built-in quick function (both languages); what was typed stays on a refusal. */
export function QuickFunctionForm({
  existing,
  items,
  saving,
  onSave,
  onCancel,
}: ResourceFormSlot<AdminQuickFunction, SaveQuickFunctionInput> & { items: AdminQuickFunction[] }) {
  const { t } = useTranslation();
  const [v, setV] = useState({
    parentId: existing?.parentId ?? null,
    nameEn: existing?.nameEn ?? '',
    nameZh: existing?.nameZh ?? '',
    descriptionEn: existing?.descriptionEn ?? '',
    descriptionZh: existing?.descriptionZh ?? '',
    templateEn: existing?.templateEn ?? '',
    templateZh: existing?.templateZh ?? '',
    icon: existing?.icon ?? '',
    category: existing?.category ?? ('scoped' as const),
    appliesTo: existing?.appliesTo ?? (['selection', 'page', 'input'] as AppliesTo[]),
    aiModelId: existing?.aiModelId ?? '',
    pinned: existing?.pinned ?? false,
    online: existing?.online ?? true,
    isGroup: existing?.isGroup ?? false,
  });
  const set = (patch: Partial<typeof v>) => setV((old) => ({ ...old, ...patch }));
  const build = (): SaveQuickFunctionInput => ({
    ...(existing ? { quickFunctionId: existing.quickFunctionId, sort: existing.sort } : {}),
    ...v,
    aiModelId: v.aiModelId.trim() || null,
  });
  const { errors, submit } = useSchemaSubmit(AdminSaveQuickFunctionBodySchema, build, onSave);
  const err = fieldMessages(errors, PROBLEMS, (code) => t(`adminContent.problems.${code}`), () => t('adminContent.invalid'));
  const parents = possibleParents(items, existing?.quickFunctionId ?? null);
  return (
    <ResourceForm onSubmit={submit} saving={saving} onCancel={onCancel} cancelLabel={t('adminContent.cancel')} saveLabel={t('adminContent.save')}>
      <Group grow>
        <Select
          label={t('adminContent.quickFunctions.parent')}
          placeholder={t('adminContent.quickFunctions.root')}
          clearable
          data={parents.map((p) => ({ value: p.quickFunctionId, label: p.nameEn }))}
          value={v.parentId}
          onChange={(parentId) => set({ parentId })}
        />
        <TextInput label={t('adminContent.quickFunctions.icon')} value={v.icon} onChange={(e) => set({ icon: e.currentTarget.value })} error={err('icon')} />
      </Group>
      <Switch label={t('adminContent.quickFunctions.isGroup')} checked={v.isGroup} onChange={(e) => set({ isGroup: e.currentTarget.checked })} />
      <SimpleGrid cols={2}>
        <TextInput label={t('adminContent.quickFunctions.nameEn')} required value={v.nameEn} onChange={(e) => set({ nameEn: e.currentTarget.value })} error={err('nameEn')} />
        <TextInput label={t('adminContent.quickFunctions.nameZh')} required value={v.nameZh} onChange={(e) => set({ nameZh: e.currentTarget.value })} error={err('nameZh')} />
        <TextInput label={t('adminContent.quickFunctions.descriptionEn')} value={v.descriptionEn} onChange={(e) => set({ descriptionEn: e.currentTarget.value })} error={err('descriptionEn')} />
        <TextInput label={t('adminContent.quickFunctions.descriptionZh')} value={v.descriptionZh} onChange={(e) => set({ descriptionZh: e.currentTarget.value })} error={err('descriptionZh')} />
        {!v.isGroup && (
          <>
            <Textarea label={t('adminContent.quickFunctions.templateEn')} autosize minRows={3} value={v.templateEn} onChange={(e) => set({ templateEn: e.currentTarget.value })} error={err('templateEn')} />
            <Textarea label={t('adminContent.quickFunctions.templateZh')} autosize minRows={3} value={v.templateZh} onChange={(e) => set({ templateZh: e.currentTarget.value })} error={err('templateZh')} />
          </>
        )}
      </SimpleGrid>
      {!v.isGroup && (
        <Group grow>
          <CategorySelect value={v.category} onChange={(category) => set({ category })} />
          <MultiSelect
            label={t('adminContent.quickFunctions.appliesTo')}
            data={AppliesToSchema.options.map((a) => ({ value: a, label: t(`adminContent.quickFunctions.targets.${a}`) }))}
            value={v.appliesTo}
            onChange={(a) => set({ appliesTo: a as AppliesTo[] })}
            error={err('appliesTo')}
          />
          <TextInput label={t('adminContent.quickFunctions.model')} description={t('adminContent.quickFunctions.modelHint')} value={v.aiModelId} onChange={(e) => set({ aiModelId: e.currentTarget.value })} error={err('aiModelId')} />
        </Group>
      )}
      <Group>
        <Switch label={t('adminContent.quickFunctions.pinned')} checked={v.pinned} onChange={(e) => set({ pinned: e.currentTarget.checked })} />
        <Switch label={t('adminContent.online')} checked={v.online} onChange={(e) => set({ online: e.currentTarget.checked })} />
      </Group>
    </ResourceForm>
  );
}
