import { Badge, Button, Group, MultiSelect, NumberInput, Select, Switch, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminContentKey, adminPromptsQuery, adminPromptTagsQuery, CONTENT_PAGE_SIZE, deleteAdminPrompt, saveAdminPrompt, type SavePromptInput } from './api.ts';
import { ResourceForm, useSchemaSubmit } from '../ui/resource-form.tsx';
import { ResourceTable, type ResourceFormSlot } from '../ui/resource-table.tsx';
import type { Language } from '../../shared/contracts/common.ts';
import { MAX_TAGS_PER_PROMPT } from '../../shared/contracts/prompt-tag.ts';
import { AdminSaveRecommendedPromptBodySchema, type AdminRecommendedPrompt } from '../../shared/contracts/quick-function.ts';
import { fieldMessages } from '../../components/ui/form-errors.ts';
import { pagedTableProps } from '../../components/ui/paged-table.ts';
import { CategorySelect } from './category-select.tsx';
import { formatTime } from './content-format.ts';
import './strings.ts';

const PROBLEMS = new Set(['promptNameRequired', 'promptContentRequired', 'promptTagsTooMany']);

/** Recommended prompts (the starters users are offered), per language, with their tags. */
export function PromptsTab() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [language, setLanguage] = useState<Language | null>(null);
  const prompts = useQuery(adminPromptsQuery(page, language));
  return (
    <ResourceTable<AdminRecommendedPrompt, SavePromptInput>
      list={prompts}
      queryKey={adminContentKey}
      filters={
        <Select
          label={t('adminContent.prompts.language')}
          placeholder={t('adminContent.any')}
          clearable
          data={(['en', 'zh'] as const).map((l) => ({ value: l, label: t(`adminContent.languages.${l}`) }))}
          value={language}
          onChange={(l) => {
            setLanguage(l as Language | null);
            setPage(1);
          }}
        />
      }
      newLabel={t('adminContent.prompts.new')}
      editTitle={t('adminContent.prompts.edit')}
      save={saveAdminPrompt}
      savedText={t('adminContent.saved')}
      remove={{
        call: (p) => deleteAdminPrompt(p.aiPrompWordId),
        title: t('adminContent.prompts.deleteTitle'),
        message: (p) => t('adminContent.prompts.deleteMessage', { name: p?.title ?? '' }),
        confirmLabel: t('adminContent.delete'),
        cancelLabel: t('adminContent.cancel'),
      }}
      form={(slot) => <PromptForm {...slot} />}
      table={({ edit, askDelete }) => (
        <DataTable<AdminRecommendedPrompt>
          aria-label={t('adminContent.tabs.prompts')}
          idAccessor="aiPrompWordId"
          {...pagedTableProps(prompts, { page, onPageChange: setPage, pageSize: CONTENT_PAGE_SIZE, emptyText: t('adminContent.empty') })}
          columns={[
            { accessor: 'title', title: t('adminContent.prompts.title'), render: (p) => `${p.icon} ${p.title}` },
            { accessor: 'content', title: t('adminContent.prompts.content'), ellipsis: true, width: 360 },
            { accessor: 'language', title: t('adminContent.prompts.language'), render: (p) => t(`adminContent.languages.${p.language}`) },
            {
              accessor: 'tags',
              title: t('adminContent.prompts.tags'),
              render: (p) => (
                <Group gap={4}>
                  {p.tags.map((tag) => (
                    <Badge key={tag.tagPromptId} size="xs" variant="light" tt="none">
                      {tag.name}
                    </Badge>
                  ))}
                </Group>
              ),
            },
            { accessor: 'sort', title: t('adminContent.prompts.sort'), textAlign: 'right' },
            {
              accessor: 'online',
              title: t('adminContent.online'),
              render: (p) => (
                <Badge variant="light" color={p.online ? 'teal' : 'gray'}>
                  {p.online ? t('adminContent.shown') : t('adminContent.hidden')}
                </Badge>
              ),
            },
            { accessor: 'updateTime', title: t('adminContent.updated'), render: (p) => formatTime(p.updateTime) },
            {
              accessor: 'actions',
              title: t('adminContent.actions'),
              render: (p) => (
                <Group gap={4} wrap="nowrap">
                  <Button size="compact-xs" variant="subtle" onClick={() => edit(p)}>
                    {t('adminContent.edit')}
                  </Button>
                  <Button size="compact-xs" variant="subtle" color="red" onClick={() => askDelete(p)}>
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

function PromptForm({ existing, saving, onSave, onCancel }: ResourceFormSlot<AdminRecommendedPrompt, SavePromptInput>) {
  const { t } = useTranslation();
  const [v, setV] = useState({
    language: existing?.language ?? ('en' as Language),
    title: existing?.title ?? '',
    content: existing?.content ?? '',
    category: existing?.category ?? ('scoped' as const),
    icon: existing?.icon ?? '',
    online: existing?.online ?? true,
    sort: (existing?.sort ?? 0) as number | string,
    tagIds: existing?.tags.map((tag) => tag.tagPromptId) ?? [],
  });
  const tags = useQuery(adminPromptTagsQuery());
  const set = (patch: Partial<typeof v>) => setV((old) => ({ ...old, ...patch }));
  // A tag deleted meanwhile is neither shown nor sent back.
  const tagIds = tags.data ? v.tagIds.filter((id) => tags.data.some((tag) => tag.tagPromptId === id)) : v.tagIds;
  const build = (): SavePromptInput => ({ ...(existing ? { aiPrompWordId: existing.aiPrompWordId } : {}), ...v, tagIds, sort: v.sort === '' ? Number.NaN : Number(v.sort) });
  const { errors, submit } = useSchemaSubmit(AdminSaveRecommendedPromptBodySchema, build, onSave);
  const err = fieldMessages(errors, PROBLEMS, (code) => t(`adminContent.problems.${code}`), () => t('adminContent.invalid'));
  return (
    <ResourceForm onSubmit={submit} saving={saving} onCancel={onCancel} cancelLabel={t('adminContent.cancel')} saveLabel={t('adminContent.save')}>
      <Group grow>
        <Select
          label={t('adminContent.prompts.language')}
          data={(['en', 'zh'] as const).map((l) => ({ value: l, label: t(`adminContent.languages.${l}`) }))}
          value={v.language}
          onChange={(l) => l && set({ language: l as Language })}
          allowDeselect={false}
        />
        <TextInput label={t('adminContent.quickFunctions.icon')} value={v.icon} onChange={(e) => set({ icon: e.currentTarget.value })} error={err('icon')} />
        <NumberInput label={t('adminContent.prompts.sort')} min={0} allowDecimal={false} value={v.sort} onChange={(sort) => set({ sort })} error={err('sort')} />
      </Group>
      <TextInput label={t('adminContent.prompts.title')} required value={v.title} onChange={(e) => set({ title: e.currentTarget.value })} error={err('title')} />
      <Textarea label={t('adminContent.prompts.content')} required autosize minRows={4} value={v.content} onChange={(e) => set({ content: e.currentTarget.value })} error={err('content')} />
      <Group>
        <CategorySelect value={v.category} onChange={(category) => set({ category })} />
        <Switch mt="lg" label={t('adminContent.shown')} checked={v.online} onChange={(e) => set({ online: e.currentTarget.checked })} />
      </Group>
      <MultiSelect
        label={t('adminContent.prompts.tags')}
        description={t('adminContent.prompts.tagsHint')}
        placeholder={v.tagIds.length ? undefined : t('adminContent.prompts.noTags')}
        data={(tags.data ?? []).map((tag) => ({ value: tag.tagPromptId, label: `${tag.nameEn} · ${tag.nameZh}` }))}
        value={tagIds}
        onChange={(tagIds) => set({ tagIds })}
        maxValues={MAX_TAGS_PER_PROMPT}
        searchable
        clearable
        error={err('tagIds')}
      />
    </ResourceForm>
  );
}
