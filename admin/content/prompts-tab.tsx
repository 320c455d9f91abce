import { Alert, Badge, Button, Group, NumberInput, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminContentKey, adminPromptsQuery, CONTENT_PAGE_SIZE, deleteAdminPrompt, saveAdminPrompt, type SavePromptInput } from './api.ts';
import type { Language } from '../../shared/contracts/common.ts';
import { AdminSaveRecommendedPromptBodySchema, type AdminRecommendedPrompt } from '../../shared/contracts/quick-function.ts';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { errorMessage } from '../../components/ui/error-message.ts';
import { fieldErrors, fieldMessages } from '../../components/ui/form-errors.ts';
import { IconPlus } from '../../components/ui/icons.tsx';
import { notifySuccess, onMutationError } from '../../components/ui/notify.ts';
import { Modal } from '../../components/ui/overlays.tsx';
import { pagedTableProps } from '../../components/ui/paged-table.ts';
import { formatTime } from './content-format.ts';
import './strings.ts';

const PROBLEMS = new Set(['promptNameRequired', 'promptContentRequired']);

/** Recommended prompts (the starters users are offered), per language. */
export function PromptsTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [language, setLanguage] = useState<Language | null>(null);
  const [editing, setEditing] = useState<AdminRecommendedPrompt | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AdminRecommendedPrompt | null>(null);
  const prompts = useQuery(adminPromptsQuery(page, language));
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminContentKey });
  const save = useMutation({
    mutationFn: saveAdminPrompt,
    onSuccess: async () => {
      setEditing(null);
      notifySuccess(t('adminContent.saved'));
      await refresh();
    },
    onError: onMutationError(),
  });
  const remove = useMutation({
    mutationFn: (p: AdminRecommendedPrompt) => deleteAdminPrompt(p.aiPrompWordId),
    onSuccess: async () => {
      setDeleting(null);
      await refresh();
    },
    onError: onMutationError(),
  });
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
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
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          {t('adminContent.prompts.new')}
        </Button>
      </Group>
      {prompts.isError && <Alert color="red">{errorMessage(prompts.error)}</Alert>}
      <DataTable<AdminRecommendedPrompt>
        aria-label={t('adminContent.tabs.prompts')}
        idAccessor="aiPrompWordId"
        {...pagedTableProps(prompts, { page, onPageChange: setPage, pageSize: CONTENT_PAGE_SIZE, emptyText: t('adminContent.empty') })}
        columns={[
          { accessor: 'title', title: t('adminContent.prompts.title'), render: (p) => `${p.icon} ${p.title}` },
          { accessor: 'content', title: t('adminContent.prompts.content'), ellipsis: true, width: 360 },
          { accessor: 'language', title: t('adminContent.prompts.language'), render: (p) => t(`adminContent.languages.${p.language}`) },
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
                <Button size="compact-xs" variant="subtle" onClick={() => setEditing(p)}>
                  {t('adminContent.edit')}
                </Button>
                <Button size="compact-xs" variant="subtle" color="red" onClick={() => setDeleting(p)}>
                  {t('adminContent.delete')}
                </Button>
              </Group>
            ),
          },
        ]}
      />
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? t('adminContent.prompts.new') : t('adminContent.prompts.edit')} size="lg">
        {editing !== null && <PromptForm existing={editing === 'new' ? null : editing} saving={save.isPending} onSave={save.mutate} onCancel={() => setEditing(null)} />}
      </Modal>
      <ConfirmDialog
        opened={deleting !== null}
        title={t('adminContent.prompts.deleteTitle')}
        message={t('adminContent.prompts.deleteMessage', { name: deleting?.title ?? '' })}
        confirmLabel={t('adminContent.delete')}
        cancelLabel={t('adminContent.cancel')}
        danger
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}

function PromptForm({ existing, saving, onSave, onCancel }: { existing: AdminRecommendedPrompt | null; saving: boolean; onSave: (body: SavePromptInput) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [v, setV] = useState({
    language: existing?.language ?? ('en' as Language),
    title: existing?.title ?? '',
    content: existing?.content ?? '',
    category: existing?.category ?? ('scoped' as const),
    icon: existing?.icon ?? '',
    online: existing?.online ?? true,
    sort: (existing?.sort ?? 0) as number | string,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (patch: Partial<typeof v>) => setV((old) => ({ ...old, ...patch }));
  const err = fieldMessages(errors, PROBLEMS, (code) => t(`adminContent.problems.${code}`), () => t('adminContent.invalid'));
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const body: SavePromptInput = { ...(existing ? { aiPrompWordId: existing.aiPrompWordId } : {}), ...v, sort: v.sort === '' ? Number.NaN : Number(v.sort) };
    const parsed = AdminSaveRecommendedPromptBodySchema.safeParse(body);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    onSave(body);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
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
          <Select
            label={t('adminContent.quickFunctions.category')}
            data={(['scoped', 'style'] as const).map((c) => ({ value: c, label: t(`adminContent.quickFunctions.categories.${c}`) }))}
            value={v.category}
            onChange={(c) => c && set({ category: c as 'scoped' | 'style' })}
            allowDeselect={false}
          />
          <Switch mt="lg" label={t('adminContent.shown')} checked={v.online} onChange={(e) => set({ online: e.currentTarget.checked })} />
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={saving}>
            {t('adminContent.cancel')}
          </Button>
          <Button type="submit" loading={saving}>
            {t('adminContent.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
