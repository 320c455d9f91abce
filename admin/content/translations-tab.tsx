import { Alert, Badge, Button, Group, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminContentKey, adminTranslationsQuery, CONTENT_PAGE_SIZE, resetAdminTranslation, saveAdminTranslation } from './api.ts';
import type { Language } from '../../shared/contracts/common.ts';
import type { AdminTranslation } from '../../shared/contracts/translations.ts';
import { placeholdersOf } from '../../shared/utils/placeholders.ts';
import { errorMessage } from '../../components/ui/error-message.ts';
import { notifySuccess } from '../../components/ui/notify.ts';
import { Modal } from '../../components/ui/overlays.tsx';
import { pagedTableProps } from '../../components/ui/paged-table.ts';
import './strings.ts';

const LANGUAGES: Language[] = ['en', 'zh'];

/**
 * The apps' strings (docs/api.md#translations): every built-in key, searchable; an operator overrides
 * one per language, and the apps show the override from their next start (or at once when open),
 * without a new build. Reset brings the built-in string back.
 */
export function TranslationsTab() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [overridden, setOverridden] = useState(false);
  const [editing, setEditing] = useState<AdminTranslation | null>(null);
  const list = useQuery(adminTranslationsQuery(page, search.trim(), overridden));
  const cell = (x: AdminTranslation, language: Language) => {
    const own = x.override[language];
    return (
      <Stack gap={2}>
        <Text size="sm" translate="no">
          {own ?? x.builtIn[language] ?? '—'}
        </Text>
        {own !== null && (
          <Badge size="xs" variant="light" w="fit-content">
            {t('adminContent.translations.overridden')}
          </Badge>
        )}
      </Stack>
    );
  };
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('adminContent.translations.hint')}
      </Text>
      <Group align="end">
        <TextInput
          label={t('adminContent.translations.search')}
          placeholder={t('adminContent.translations.searchPlaceholder')}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          w={{ base: '100%', sm: 320 }}
        />
        <Switch
          label={t('adminContent.translations.overriddenOnly')}
          checked={overridden}
          onChange={(e) => {
            setOverridden(e.currentTarget.checked);
            setPage(1);
          }}
        />
      </Group>
      {list.isError && <Alert color="red">{errorMessage(list.error)}</Alert>}
      <DataTable<AdminTranslation>
        aria-label={t('adminContent.tabs.translations')}
        idAccessor="key"
        {...pagedTableProps(list, { page, onPageChange: setPage, pageSize: CONTENT_PAGE_SIZE, emptyText: t('adminContent.empty') })}
        columns={[
          { accessor: 'key', title: t('adminContent.translations.key'), render: (x) => <Text size="xs" ff="monospace" translate="no">{x.key}</Text> },
          { accessor: 'en', title: t('adminContent.languages.en'), render: (x) => cell(x, 'en') },
          { accessor: 'zh', title: t('adminContent.languages.zh'), render: (x) => cell(x, 'zh') },
          {
            accessor: 'actions',
            title: t('adminContent.actions'),
            render: (x) => (
              <Button size="compact-xs" variant="subtle" aria-label={t('adminContent.editNamed', { name: x.key })} onClick={() => setEditing(x)}>
                {t('adminContent.edit')}
              </Button>
            ),
          },
        ]}
      />
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing?.key} size="lg">
        {editing && <TranslationEditor key={editing.key} entry={editing} onChange={setEditing} />}
      </Modal>
    </Stack>
  );
}

/** Both languages of one key: the built-in string, the override being typed, Save and Reset. */
function TranslationEditor({ entry, onChange }: { entry: AdminTranslation; onChange: (next: AdminTranslation) => void }) {
  return (
    <Stack gap="lg">
      {LANGUAGES.map((language) => (
        <LanguageOverride key={language} entry={entry} language={language} onChange={onChange} />
      ))}
    </Stack>
  );
}

function LanguageOverride({ entry, language, onChange }: { entry: AdminTranslation; language: Language; onChange: (next: AdminTranslation) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const builtIn = entry.builtIn[language] ?? entry.builtIn.en ?? '';
  const [value, setValue] = useState(entry.override[language] ?? builtIn);
  const [problem, setProblem] = useState<string | null>(null);
  const done = async (next: AdminTranslation, message: string) => {
    notifySuccess(message);
    onChange(next);
    setValue(next.override[language] ?? builtIn);
    await queryClient.invalidateQueries({ queryKey: [...adminContentKey, 'translations'] });
  };
  // The server's refusal goes under the field: it says what to fix.
  const refused = (error: unknown) => setProblem(errorMessage(error));
  const save = useMutation({
    mutationFn: () => saveAdminTranslation({ key: entry.key, language, value: value.trim() }),
    onSuccess: (next) => done(next, t('adminContent.translations.saved', { key: entry.key })),
    onError: refused,
  });
  const reset = useMutation({
    mutationFn: () => resetAdminTranslation(entry.key, language),
    onSuccess: (next) => done(next, t('adminContent.translations.resetDone', { key: entry.key })),
    onError: refused,
  });
  const submit = () => {
    const expected = placeholdersOf(builtIn);
    const got = placeholdersOf(value);
    if (!value.trim()) return setProblem(t('adminContent.translations.required'));
    if (expected.join('\n') !== got.join('\n')) {
      const names = (list: string[]) => (list.length ? list.map((n) => `{{${n}}}`).join(', ') : '—');
      return setProblem(t('adminContent.translations.placeholders', { expected: names(expected), got: names(got), interpolation: { skipOnVariables: true } }));
    }
    setProblem(null);
    save.mutate();
  };
  const overridden = entry.override[language] !== null;
  return (
    <Stack gap={6}>
      <Group justify="space-between">
        <Title order={5}>{t(`adminContent.languages.${language}`)}</Title>
        {overridden && (
          <Badge size="xs" variant="light">
            {t('adminContent.translations.overridden')}
          </Badge>
        )}
      </Group>
      <Text size="xs" c="dimmed" translate="no">
        {t('adminContent.translations.builtIn')}: {entry.builtIn[language] ?? '—'}
      </Text>
      <Textarea
        label={t('adminContent.translations.value', { language: t(`adminContent.languages.${language}`) })}
        autosize
        minRows={2}
        value={value}
        onChange={(e) => {
          setValue(e.currentTarget.value);
          setProblem(null);
        }}
        error={problem}
        translate="no"
      />
      <Group gap="xs">
        <Button size="compact-sm" onClick={submit} loading={save.isPending} disabled={value === (entry.override[language] ?? builtIn)}>
          {t('adminContent.save')}
        </Button>
        {overridden && (
          <Button size="compact-sm" variant="default" onClick={() => reset.mutate()} loading={reset.isPending}>
            {t('adminContent.translations.reset')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
