import { Button, Group, NumberInput, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminContentKey, adminPromptTagsQuery, deleteAdminPromptTag, saveAdminPromptTag, type SavePromptTagInput } from './api.ts';
import { ResourceForm, useSchemaSubmit } from '../ui/resource-form.tsx';
import { ResourceTable, type ResourceFormSlot } from '../ui/resource-table.tsx';
import { AdminSavePromptTagBodySchema, MAX_PROMPT_TAG_NAME_CHARS, type AdminPromptTag } from '../../shared/contracts/prompt-tag.ts';
import { fieldMessages } from '../../components/ui/form-errors.ts';
import { formatTime } from './content-format.ts';
import './strings.ts';

const PROBLEMS = new Set(['promptTagNameRequired', 'promptTagNameTooLong']);

/** Prompt tags (TagPrompt): the labels of the prompt library, each named in English and Chinese. */
export function PromptTagsTab() {
  const { t, i18n } = useTranslation();
  const tags = useQuery(adminPromptTagsQuery());
  // A tag is called by its name in the console's language in buttons and messages.
  const nameOf = (tag: AdminPromptTag) => (i18n.language === 'zh' ? tag.nameZh : tag.nameEn);
  return (
    <ResourceTable<AdminPromptTag, SavePromptTagInput>
      list={tags}
      queryKey={adminContentKey}
      intro={
        <Text size="sm" c="dimmed">
          {t('adminContent.tags.hint')}
        </Text>
      }
      newLabel={t('adminContent.tags.new')}
      editTitle={t('adminContent.tags.edit')}
      formKey={(tag) => tag.tagPromptId}
      modalSize="md"
      save={saveAdminPromptTag}
      savedText={(saved) => t('adminContent.tags.saved', { name: nameOf(saved as AdminPromptTag) })}
      remove={{
        call: (tag) => deleteAdminPromptTag(tag.tagPromptId),
        title: t('adminContent.tags.deleteTitle'),
        message: (tag) => t('adminContent.tags.deleteMessage', { name: tag ? nameOf(tag) : '', count: (tag?.promptCount ?? 0) + (tag?.userPromptCount ?? 0) }),
        confirmLabel: t('adminContent.delete'),
        cancelLabel: t('adminContent.cancel'),
      }}
      form={(slot) => <PromptTagForm {...slot} />}
      table={({ edit, askDelete }) => (
        <DataTable<AdminPromptTag>
          aria-label={t('adminContent.tabs.tags')}
          idAccessor="tagPromptId"
          withTableBorder
          minHeight={160}
          fetching={tags.isFetching}
          noRecordsText={t('adminContent.empty')}
          records={tags.data ?? []}
          columns={[
            // What operators typed, as they typed it (a browser's translator leaves it alone).
            { accessor: 'nameEn', title: t('adminContent.tags.nameEn'), render: (tag) => <span translate="no">{tag.nameEn}</span> },
            { accessor: 'nameZh', title: t('adminContent.tags.nameZh'), render: (tag) => <span translate="no">{tag.nameZh}</span> },
            { accessor: 'sort', title: t('adminContent.prompts.sort'), textAlign: 'right' },
            { accessor: 'promptCount', title: t('adminContent.tags.promptCount'), textAlign: 'right' },
            { accessor: 'userPromptCount', title: t('adminContent.tags.userPromptCount'), textAlign: 'right' },
            { accessor: 'createTime', title: t('adminContent.tags.created'), render: (tag) => formatTime(tag.createTime) },
            {
              accessor: 'actions',
              title: t('adminContent.actions'),
              render: (tag) => (
                <Group gap={4} wrap="nowrap">
                  <Button size="compact-xs" variant="subtle" aria-label={t('adminContent.editNamed', { name: nameOf(tag) })} onClick={() => edit(tag)}>
                    {t('adminContent.edit')}
                  </Button>
                  <Button size="compact-xs" variant="subtle" color="red" aria-label={t('adminContent.deleteNamed', { name: nameOf(tag) })} onClick={() => askDelete(tag)}>
                    {t('adminContent.delete')}
                  </Button>
                </Group>
              ),
            },
          ]}
        />
      )}
    />
  );
}

function PromptTagForm({ existing, saving, onSave, onCancel }: ResourceFormSlot<AdminPromptTag, SavePromptTagInput>) {
  const { t } = useTranslation();
  const [v, setV] = useState({ nameEn: existing?.nameEn ?? '', nameZh: existing?.nameZh ?? '', sort: (existing?.sort ?? '') as number | string });
  const set = (patch: Partial<typeof v>) => setV((old) => ({ ...old, ...patch }));
  const build = (): SavePromptTagInput => ({
    ...(existing ? { tagPromptId: existing.tagPromptId } : {}),
    nameEn: v.nameEn,
    nameZh: v.nameZh,
    // Empty: after the others (new) or where it was (edit).
    ...(v.sort === '' ? {} : { sort: Number(v.sort) }),
  });
  const { errors, submit } = useSchemaSubmit(AdminSavePromptTagBodySchema, build, onSave, { sendParsed: true });
  const err = fieldMessages(errors, PROBLEMS, (code) => t(`adminContent.problems.${code}`, { max: MAX_PROMPT_TAG_NAME_CHARS }), () => t('adminContent.invalid'));
  return (
    <ResourceForm onSubmit={submit} saving={saving} onCancel={onCancel} cancelLabel={t('adminContent.cancel')} saveLabel={t('adminContent.save')}>
      <TextInput label={t('adminContent.tags.nameEn')} required maxLength={MAX_PROMPT_TAG_NAME_CHARS} value={v.nameEn} onChange={(e) => set({ nameEn: e.currentTarget.value })} error={err('nameEn')} data-autofocus />
      <TextInput label={t('adminContent.tags.nameZh')} required maxLength={MAX_PROMPT_TAG_NAME_CHARS} value={v.nameZh} onChange={(e) => set({ nameZh: e.currentTarget.value })} error={err('nameZh')} />
      <NumberInput
        label={t('adminContent.prompts.sort')}
        description={t('adminContent.tags.sortHint')}
        min={0}
        allowDecimal={false}
        value={v.sort}
        onChange={(sort) => set({ sort })}
        error={err('sort')}
      />
    </ResourceForm>
  );
}
