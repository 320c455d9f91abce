import { Group, MultiSelect, NumberInput, Select, Switch, TagsInput, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminModelTypesQuery, type SaveModelInput } from './api.ts';
import { MODEL_TYPE_IDS } from '../../shared/contracts/model-type.ts';
import { SaveModelSchema, VIP_LEVEL_NAMES, type AdminModel } from '../../shared/contracts/model.ts';
import { ResourceForm, useSchemaSubmit } from '../ui/resource-form.tsx';
import type { ResourceFormSlot } from '../ui/resource-table.tsx';
import './strings.ts';

interface ModelFormValues {
  aiModelId: string;
  name: string;
  description: string;
  minVipLevel: number;
  pointsCost: number | string;
  /** Price the answer by its tokens (the pointsCost is then the hold). */
  tokenPriced: boolean;
  inputPer1k: number | string;
  outputPer1k: number | string;
  contextWindow: number | string;
  /** Its model types; 'vision' is what "reads images" means. */
  typeIds: string[];
  fileTypes: string[];
  webSearch: boolean;
  online: boolean;
}

function modelFormValues(model: AdminModel | null): ModelFormValues {
  return {
    aiModelId: model?.aiModelId ?? '',
    name: model?.name ?? '',
    description: model?.description ?? '',
    minVipLevel: model?.minVipLevel ?? 0,
    pointsCost: model?.pointsCost ?? 1,
    tokenPriced: !!model?.tokenPrice,
    inputPer1k: model?.tokenPrice?.inputPer1k ?? 0,
    outputPer1k: model?.tokenPrice?.outputPer1k ?? 0,
    contextWindow: model?.contextWindow ?? 8192,
    typeIds: model?.types ?? [MODEL_TYPE_IDS.chat],
    fileTypes: model?.modelMap.fileTypes ?? [],
    webSearch: model?.webSearch ?? true,
    online: model?.online ?? true,
  };
}

/** The body of AiModel/Save for the form's values (checked against SaveModelSchema when submitted). */
function modelBody(values: ModelFormValues, existing: AdminModel | null): SaveModelInput {
  const numberOf = (v: number | string) => (v === '' ? Number.NaN : Number(v));
  return {
    ...(existing ? { aiModelId: existing.aiModelId } : values.aiModelId.trim() ? { aiModelId: values.aiModelId } : {}),
    name: values.name,
    description: values.description,
    minVipLevel: values.minVipLevel,
    pointsCost: numberOf(values.pointsCost),
    tokenPrice: values.tokenPriced ? { inputPer1k: numberOf(values.inputPer1k), outputPer1k: numberOf(values.outputPer1k) } : null,
    contextWindow: numberOf(values.contextWindow),
    modelMap: { isImage: values.typeIds.includes(MODEL_TYPE_IDS.vision), fileTypes: values.fileTypes },
    typeIds: values.typeIds,
    webSearch: values.webSearch,
    online: values.online,
    // An edit keeps the model's place in the catalogue's order.
    ...(existing ? { sort: existing.sort } : {}),
  };
}

/** Creates or edits a catalogue model (`existing` null: a new one); the values stay when the server refuses them. */
export function ModelForm({ existing: model, saving, onSave, onCancel: onClose }: ResourceFormSlot<AdminModel, SaveModelInput>) {
  const { t, i18n } = useTranslation();
  const [values, setValues] = useState(() => modelFormValues(model));
  const types = useQuery(adminModelTypesQuery());
  // The types to pick from, named in the console's language; the model's own stay listed even before the list has come.
  const typeOptions = [
    ...(types.data ?? []).map((type) => ({ value: type.aiModelTypeId, label: i18n.language === 'zh' ? type.nameZh : type.nameEn })),
    ...values.typeIds.filter((id) => !types.data?.some((type) => type.aiModelTypeId === id)).map((id) => ({ value: id, label: id })),
  ];
  const { errors, submit } = useSchemaSubmit(SaveModelSchema, () => modelBody(values, model), onSave, { sendParsed: true });
  const set = <K extends keyof ModelFormValues>(key: K, value: ModelFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const error = (field: string) => (errors[field] ? t(`adminModels.form.invalid.${field}`, { defaultValue: t('adminModels.form.invalid.generic') }) : undefined);

  return (
    <ResourceForm onSubmit={submit} saving={saving} onCancel={onClose} cancelLabel={t('adminModels.cancel')} saveLabel={t('adminModels.save')}>
      <TextInput label={t('adminModels.form.name')} required value={values.name} onChange={(e) => set('name', e.currentTarget.value)} error={error('name')} />
      {!model && (
        <TextInput
          label={t('adminModels.form.id')}
          description={t('adminModels.form.idHint')}
          value={values.aiModelId}
          onChange={(e) => set('aiModelId', e.currentTarget.value)}
          error={error('aiModelId')}
        />
      )}
      <Textarea label={t('adminModels.form.description')} autosize minRows={2} value={values.description} onChange={(e) => set('description', e.currentTarget.value)} error={error('description')} />
      <Group grow>
        <Select
          label={t('adminModels.form.level')}
          data={VIP_LEVEL_NAMES.map((name, level) => ({ value: String(level), label: t(`adminModels.levels.${name}`) }))}
          value={String(values.minVipLevel)}
          onChange={(value) => set('minVipLevel', Number(value ?? 0))}
          allowDeselect={false}
        />
        <NumberInput
          label={t(values.tokenPriced ? 'adminModels.form.holdPoints' : 'adminModels.form.pointsCost')}
          min={0}
          allowDecimal={false}
          value={values.pointsCost}
          onChange={(v) => set('pointsCost', v)}
          error={errors.pointsCost === 'tokenPriceNeedsHold' ? t('adminModels.form.invalid.holdPoints') : error('pointsCost')}
        />
        <NumberInput label={t('adminModels.form.contextWindow')} min={256} allowDecimal={false} value={values.contextWindow} onChange={(v) => set('contextWindow', v)} error={error('contextWindow')} />
      </Group>
      <Switch
        label={t('adminModels.form.tokenPriced')}
        description={t('adminModels.form.tokenPricedHint')}
        checked={values.tokenPriced}
        onChange={(e) => set('tokenPriced', e.currentTarget.checked)}
      />
      {values.tokenPriced && (
        <Group grow>
          <NumberInput
            label={t('adminModels.form.inputPer1k')}
            min={0}
            decimalScale={3}
            value={values.inputPer1k}
            onChange={(v) => set('inputPer1k', v)}
            error={errors['tokenPrice.inputPer1k'] ? t('adminModels.form.invalid.per1k') : undefined}
          />
          <NumberInput
            label={t('adminModels.form.outputPer1k')}
            min={0}
            decimalScale={3}
            value={values.outputPer1k}
            onChange={(v) => set('outputPer1k', v)}
            error={errors['tokenPrice.outputPer1k'] ? t('adminModels.form.invalid.per1k') : undefined}
          />
        </Group>
      )}
      <MultiSelect
        label={t('adminModels.form.types')}
        description={t('adminModels.form.typesHint')}
        required
        data={typeOptions}
        value={values.typeIds}
        onChange={(v) => set('typeIds', v)}
        error={Object.keys(errors).some((k) => k.startsWith('typeIds')) ? t('adminModels.form.invalid.typeIds') : undefined}
      />
      <TagsInput
        label={t('adminModels.form.fileTypes')}
        description={t('adminModels.form.fileTypesHint')}
        value={values.fileTypes}
        onChange={(v) => set('fileTypes', v)}
        error={Object.keys(errors).some((k) => k.startsWith('modelMap.fileTypes')) ? t('adminModels.form.invalid.fileTypes') : undefined}
      />
      <Group>
        <Switch label={t('adminModels.form.webSearch')} checked={values.webSearch} onChange={(e) => set('webSearch', e.currentTarget.checked)} />
        <Switch label={t('adminModels.form.online')} checked={values.online} onChange={(e) => set('online', e.currentTarget.checked)} />
      </Group>
    </ResourceForm>
  );
}
