import { Alert, Badge, Button, Checkbox, Group, MultiSelect, SegmentedControl, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { modelListQuery } from '../../shared/api/chat.ts';
import { promptTagsQuery } from '../../shared/api/prompt-tags.ts';
import { saveUserQuickFunction, type SaveUserQuickFunctionInput } from '../../shared/api/quick-functions.ts';
import { isLoggedInAtom, userInfoAtom } from '../../shared/atoms/auth.ts';
import {
  AppliesToSchema,
  MAX_QF_DESCRIPTION_CHARS,
  MAX_QF_ICON_CHARS,
  MAX_QF_NAME_CHARS,
  MAX_QF_TEMPLATE_CHARS,
  QUICK_FUNCTION_PLACEHOLDERS,
  type AppliesTo,
  type QuickFunctionCategory,
  type UserQuickFunction,
} from '../../shared/contracts/quick-function.ts';
import { MAX_TAGS_PER_PROMPT } from '../../shared/contracts/prompt-tag.ts';
import { Modal } from '../ui/overlays.tsx';

/** The Prompt form's values (spec: name, content, applicable-to, description, show or hide in list; and more). */
export interface PromptValues {
  name: string;
  template: string;
  appliesTo: AppliesTo[];
  description: string;
  online: boolean;
  pinned: boolean;
  category: QuickFunctionCategory;
  icon: string;
  aiModelId: string | null;
  parentId: string | null;
  isGroup: boolean;
  /** The operator's tags it carries. */
  tagIds: string[];
}

export type PromptErrors = Partial<Record<'name' | 'template' | 'appliesTo', string>>;

/** The form's start: an item's values to edit, or a new prompt's (or group's) defaults. */
export function initialValues(item: UserQuickFunction | null, isGroup: boolean): PromptValues {
  if (item) {
    const { name, template, appliesTo, description, online, pinned, category, icon, aiModelId, parentId, tagIds } = item;
    return { name, template, appliesTo, description, online, pinned, category, icon, aiModelId, parentId, isGroup: item.isGroup, tagIds };
  }
  return {
    name: '',
    template: '',
    // A group holds tools of every kind; a prompt says where it applies (required).
    appliesTo: isGroup ? ['selection', 'page', 'input'] : [],
    description: '',
    online: true,
    pinned: false,
    category: 'scoped',
    icon: '',
    aiModelId: null,
    parentId: null,
    isGroup,
    tagIds: [],
  };
}

/** The form's rules: name and content required, at least one applicable-to (a group needs no content). */
export function validatePrompt(values: PromptValues, t: (key: string) => string): PromptErrors {
  const errors: PromptErrors = {};
  if (!values.name.trim()) errors.name = t('quickFunctions.form.nameRequired');
  if (!values.isGroup && !values.template.trim()) errors.template = t('quickFunctions.form.contentRequired');
  if (values.appliesTo.length === 0) errors.appliesTo = t('quickFunctions.form.appliesToRequired');
  return errors;
}

export interface PromptFormModalProps {
  opened: boolean;
  /** The item edited; null creates one. */
  item: UserQuickFunction | null;
  /** Creating a group rather than a prompt (ignored when editing). */
  isGroup: boolean;
  /** The user's groups, for the Group field. */
  groups: readonly UserQuickFunction[];
  onClose: () => void;
  onSaved: (saved: UserQuickFunction) => void;
}

/** The Prompt form in a dialog: creates or edits one of the user's prompts (or groups). */
export function PromptFormModal({ opened, item, isGroup, groups, onClose, onSaved }: PromptFormModalProps) {
  const { t } = useTranslation();
  const group = item ? item.isGroup : isGroup;
  const title = item ? (group ? 'editGroupTitle' : 'editTitle') : group ? 'createGroupTitle' : 'createTitle';
  return (
    <Modal opened={opened} onClose={onClose} title={t(`quickFunctions.form.${title}`)} size="lg" centered>
      {/* Mounted per opening, so each starts from the item's values. */}
      {opened && <PromptForm item={item} isGroup={group} groups={groups} onClose={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function PromptForm({ item, isGroup, groups, onClose, onSaved }: Omit<PromptFormModalProps, 'opened'>) {
  const { t } = useTranslation();
  const [values, setValues] = useState(() => initialValues(item, isGroup));
  const [errors, setErrors] = useState<PromptErrors>({});
  const set = <K extends keyof PromptValues>(key: K, value: PromptValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const save = useMutation({
    mutationFn: (body: SaveUserQuickFunctionInput) => saveUserQuickFunction(body),
    onSuccess: (saved) => onSaved(saved),
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const found = validatePrompt(values, t);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate({ ...values, template: isGroup ? '' : values.template, userQuickFunctionId: item?.userQuickFunctionId ?? null });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Group align="flex-start" gap="sm" wrap="nowrap">
          <TextInput
            label={t('quickFunctions.form.icon')}
            description={t('quickFunctions.form.iconHint')}
            w={90}
            maxLength={MAX_QF_ICON_CHARS}
            value={values.icon}
            onChange={(e) => set('icon', e.currentTarget.value)}
          />
          <TextInput
            style={{ flex: 1 }}
            label={isGroup ? t('quickFunctions.form.groupName') : t('quickFunctions.form.name')}
            description={'\u00a0'}
            placeholder={isGroup ? undefined : t('quickFunctions.form.namePlaceholder')}
            withAsterisk
            maxLength={MAX_QF_NAME_CHARS}
            value={values.name}
            error={errors.name}
            onChange={(e) => set('name', e.currentTarget.value)}
            data-autofocus
          />
        </Group>
        {!isGroup && <ContentField value={values.template} error={errors.template} onChange={(v) => set('template', v)} />}
        {!isGroup && (
          <Checkbox.Group label={t('quickFunctions.appliesTo.label')} withAsterisk value={values.appliesTo} error={errors.appliesTo} onChange={(v) => set('appliesTo', v as AppliesTo[])}>
            <Group gap="md" mt={6}>
              {AppliesToSchema.options.map((option) => (
                <Checkbox key={option} value={option} label={t(`quickFunctions.appliesTo.${option}`)} />
              ))}
            </Group>
          </Checkbox.Group>
        )}
        <Textarea
          label={t('quickFunctions.form.description')}
          placeholder={t('quickFunctions.form.descriptionPlaceholder')}
          autosize
          minRows={1}
          maxRows={3}
          maxLength={MAX_QF_DESCRIPTION_CHARS}
          value={values.description}
          onChange={(e) => set('description', e.currentTarget.value)}
        />
        {!isGroup && <PromptOptions values={values} groups={groups.filter((g) => g.userQuickFunctionId !== item?.userQuickFunctionId)} set={set} />}
        <Switch
          label={t('quickFunctions.form.online')}
          description={t('quickFunctions.form.onlineHint')}
          checked={values.online}
          onChange={(e) => set('online', e.currentTarget.checked)}
        />
        {save.isError && (
          <Alert color="red" variant="light" role="alert">
            {save.error instanceof Error ? save.error.message : String(save.error)}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('quickFunctions.form.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('quickFunctions.form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The content, with the placeholders explained; a click on one inserts it where the cursor is. */
function ContentField({ value, error, onChange }: { value: string; error?: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLTextAreaElement>(null);
  const insert = (placeholder: string) => {
    const el = ref.current;
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    onChange(value.slice(0, start) + placeholder + value.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + placeholder.length, start + placeholder.length);
    });
  };
  return (
    <Stack gap={4}>
      <Textarea
        ref={ref}
        label={t('quickFunctions.form.content')}
        placeholder={t('quickFunctions.form.contentPlaceholder')}
        withAsterisk
        autosize
        minRows={4}
        maxRows={12}
        maxLength={MAX_QF_TEMPLATE_CHARS}
        value={value}
        error={error}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
      <Text size="xs" c="dimmed">
        {t('quickFunctions.form.placeholderHelp')}
      </Text>
      <Group gap={6}>
        {QUICK_FUNCTION_PLACEHOLDERS.map((placeholder) => (
          <Badge
            key={placeholder}
            component="button"
            type="button"
            variant="light"
            tt="none"
            style={{ cursor: 'pointer' }}
            title={t(`quickFunctions.form.placeholder.${placeholder.slice(1, -1)}`)}
            onClick={() => insert(placeholder)}
          >
            {placeholder} · {t(`quickFunctions.form.placeholder.${placeholder.slice(1, -1)}`)}
          </Badge>
        ))}
      </Group>
    </Stack>
  );
}

/** The fields beyond the spec's form: category, tags, group, preferred model, pinned to the toolbar. */
function PromptOptions({
  values,
  groups,
  set,
}: {
  values: PromptValues;
  groups: readonly UserQuickFunction[];
  set: <K extends keyof PromptValues>(key: K, value: PromptValues[K]) => void;
}) {
  const { t, i18n } = useTranslation();
  const tags = useQuery(promptTagsQuery(i18n.language === 'zh' ? 'zh' : 'en')).data ?? [];
  const loggedIn = useAtomValue(isLoggedInAtom);
  const planLevel = useAtomValue(userInfoAtom)?.vipOrder?.vipPackageLevel ?? 0;
  const models = useQuery(modelListQuery(loggedIn, planLevel)).data ?? [];
  const modelOptions = [
    { value: '', label: t('quickFunctions.form.modelAny') },
    ...models.filter((m) => !m.locked || m.aiModelId === values.aiModelId).map((m) => ({ value: m.aiModelId, label: m.name })),
  ];
  const groupOptions = [{ value: '', label: t('quickFunctions.noGroup') }, ...groups.map((g) => ({ value: g.userQuickFunctionId, label: g.name }))];
  return (
    <>
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('quickFunctions.category.label')}
        </Text>
        <SegmentedControl
          aria-label={t('quickFunctions.category.label')}
          value={values.category}
          onChange={(v) => set('category', v as QuickFunctionCategory)}
          data={[
            { value: 'scoped', label: t('quickFunctions.category.scoped') },
            { value: 'style', label: t('quickFunctions.category.style') },
          ]}
          style={{ alignSelf: 'flex-start' }}
        />
      </Stack>
      {tags.length > 0 && (
        <MultiSelect
          label={t('quickFunctions.form.tags')}
          description={t('quickFunctions.form.tagsHint')}
          placeholder={values.tagIds.length ? undefined : t('quickFunctions.form.tagsPlaceholder')}
          data={tags.map((tag) => ({ value: tag.tagPromptId, label: tag.name }))}
          // A tag deleted meanwhile is not offered, and not sent back.
          value={values.tagIds.filter((id) => tags.some((tag) => tag.tagPromptId === id))}
          onChange={(v) => set('tagIds', v)}
          maxValues={MAX_TAGS_PER_PROMPT}
          clearable
          comboboxProps={{ withinPortal: true }}
        />
      )}
      <Group grow align="flex-start" gap="sm">
        <Select
          label={t('quickFunctions.form.parent')}
          data={groupOptions}
          value={values.parentId ?? ''}
          onChange={(v) => set('parentId', v || null)}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label={t('quickFunctions.form.model')}
          description={t('quickFunctions.form.modelHint')}
          data={modelOptions}
          value={values.aiModelId ?? ''}
          onChange={(v) => set('aiModelId', v || null)}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
      <Switch label={t('quickFunctions.form.pinned')} checked={values.pinned} onChange={(e) => set('pinned', e.currentTarget.checked)} />
    </>
  );
}
