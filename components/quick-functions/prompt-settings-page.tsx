import { Alert, Button, Center, Group, List, Loader, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useMemo, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  deleteUserQuickFunction,
  exportUserQuickFunctions,
  groupUserQuickFunction,
  importUserQuickFunctions,
  quickFunctionsKey,
  saveUserQuickFunction,
  setUserQuickFunctionOnline,
  type SaveUserQuickFunctionInput,
  sortUserQuickFunctions,
  userQuickFunctionsQuery,
} from '../../shared/api/quick-functions.ts';
import { promptTagsQuery } from '../../shared/api/prompt-tags.ts';
import { mySubmissionsQuery, withdrawSubmission } from '../../shared/api/prompt-library.ts';
import type { PromptSubmission } from '../../shared/contracts/prompt-library.ts';
import { isLoggedInAtom, tokenAtom } from '../../shared/atoms/auth.ts';
import type { UserQuickFunction } from '../../shared/contracts/quick-function.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { SignInPrompt } from '../app-shell/sign-in-prompt.tsx';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { IconDownload, IconFolder, IconPlus, IconSearch, IconUpload } from '../ui/icons.tsx';
import { notifyError, notifySuccess } from '../ui/notify.ts';
import { Modal } from '../ui/overlays.tsx';
import { PageFrame } from '../ui/page-frame.tsx';
import { PromptFormModal } from './prompt-form.tsx';
import { checkImportFile, downloadJson, exportFileName, type ImportProblem } from './prompt-import.ts';
import { PromptList } from './prompt-list.tsx';
import { arrangePrompts, reorderPrompts, withOrder } from './prompt-order.ts';
import { PromptLibrary } from './prompt-library.tsx';
import { SharePromptModal } from './share-prompt.tsx';
import strings from '../../locales/features/quick-functions.en.json';

addEnglishStrings(strings);

export interface PromptSettingsPageProps {
  /** Back to where the user came from (settings). */
  onBack: () => void;
}

/**
 * /prompt_setting: the user's own prompts (quick functions) — search, show or hide, pin to the
 * selection toolbar, sort, group, edit in the Prompt form, delete, share to the community library —
 * the recommended prompts, the community's prompts, and import/export as JSON. Every change is announced to the extension (updatePromptPlugin).
 */
export function PromptSettingsPage({ onBack }: PromptSettingsPageProps) {
  const { t } = useTranslation();
  const { isH5 } = usePlatform();
  const loggedIn = useAtomValue(isLoggedInAtom);
  return (
    <PageFrame title={t('quickFunctions.title')} backLabel={t('quickFunctions.back')} onBack={onBack} narrow={isH5} backBarTestId="prompt-settings-back">
      <Text size="sm" c="dimmed">
        {t('quickFunctions.intro')}
      </Text>
      {loggedIn ? <PromptSettingsContent /> : <SignInPrompt message={t('quickFunctions.signInPrompt')} signInLabel={t('quickFunctions.signIn')} notice="chat.notLoginTip" />}
    </PageFrame>
  );
}

/** What the save route takes to keep `item` as it is. */
function saveBodyOf(item: UserQuickFunction): SaveUserQuickFunctionInput {
  const { userQuickFunctionId, parentId, name, icon, description, template, category, appliesTo, aiModelId, pinned, online, isGroup, tagIds } = item;
  return { userQuickFunctionId, parentId, name, icon, description, template, category, appliesTo, aiModelId, pinned, online, isGroup, tagIds };
}

type ImportReport = { imported: number; problems: ImportProblem[]; error?: string };
type Editing = { item: UserQuickFunction | null; isGroup: boolean } | null;

/** Runs a change to the user's prompts: the list is read again after it, a failure is told. */
function useChange() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return async (change: () => Promise<unknown>, done?: string) => {
    try {
      await change();
      if (done) notifySuccess(done);
    } catch (error) {
      notifyError(t('quickFunctions.failed', { message: error instanceof Error ? error.message : String(error) }));
    } finally {
      await queryClient.invalidateQueries({ queryKey: quickFunctionsKey });
    }
  };
}

/** The rows shown: all in their tree, or (searching or by tag) the matches, flat. */
function filterRows(items: UserQuickFunction[], q: string, tagId: string | null) {
  const all = arrangePrompts(items);
  if (!q && !tagId) return all;
  return all
    .filter(({ item }) => !q || [item.name, item.description, item.template].some((s) => s.toLocaleLowerCase().includes(q)))
    .filter(({ item }) => !tagId || item.tagIds.includes(tagId))
    .map((row) => ({ ...row, depth: 0 as const }));
}

function PromptSettingsContent() {
  const { t, i18n } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const queryClient = useQueryClient();
  const own = useQuery(userQuickFunctionsQuery(token));
  const tags = useQuery(promptTagsQuery(i18n.language === 'zh' ? 'zh' : 'en')).data ?? [];
  const [search, setSearch] = useState('');
  const [chosenTag, setChosenTag] = useState<string | null>(null);
  // A tag that went away falls back to every prompt.
  const tagId = chosenTag && tags.some((tag) => tag.tagPromptId === chosenTag) ? chosenTag : null;
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<UserQuickFunction | null>(null);
  const change = useChange();
  const items = useMemo(() => own.data ?? [], [own.data]);
  const sharing = useSharing(token);
  const groups = useMemo(() => items.filter((item) => item.isGroup), [items]);
  const q = search.trim().toLocaleLowerCase();
  const filtered = q !== '' || tagId !== null;
  const rows = useMemo(() => filterRows(items, q, tagId), [items, q, tagId]);

  const setOwn = (next: UserQuickFunction[]) => queryClient.setQueryData(userQuickFunctionsQuery(token).queryKey, next);
  const move = (item: UserQuickFunction, to: number) => {
    const ids = reorderPrompts(items, item.userQuickFunctionId, to);
    if (!ids) return;
    setOwn(withOrder(items, ids));
    void change(() => sortUserQuickFunctions(ids));
  };
  const update = (item: UserQuickFunction, patch: Partial<UserQuickFunction>, call: () => Promise<unknown>) => {
    setOwn(items.map((i) => (i.userQuickFunctionId === item.userQuickFunctionId ? { ...i, ...patch } : i)));
    void change(call);
  };

  if (own.isPending) {
    return (
      <Center py="xl">
        <Loader size="sm" />
      </Center>
    );
  }
  if (own.isError) {
    return (
      <Stack gap="xs" align="flex-start">
        <Alert color="red" role="alert">
          {t('quickFunctions.loadFailed')}
        </Alert>
        <Button variant="light" onClick={() => void own.refetch()}>
          {t('quickFunctions.retry')}
        </Button>
      </Stack>
    );
  }
  return (
    <>
      <Toolbar search={search} onSearch={setSearch} onAdd={(isGroup) => setEditing({ item: null, isGroup })} />
      {tags.length > 0 && (
        <Select
          label={t('quickFunctions.tagFilter')}
          data={[{ value: '', label: t('quickFunctions.tagFilterAll') }, ...tags.map((tag) => ({ value: tag.tagPromptId, label: tag.name }))]}
          value={tagId ?? ''}
          onChange={(v) => setChosenTag(v || null)}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          maw={{ base: '100%', sm: 280 }}
        />
      )}
      <Text fw={600}>{t('quickFunctions.mine')}</Text>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="prompt-list-empty">
          {q ? t('quickFunctions.noMatch', { query: search.trim() }) : tagId ? t('quickFunctions.noMatchTag') : t('quickFunctions.empty')}
        </Text>
      ) : (
        <PromptList
          rows={rows}
          groups={groups}
          sortable={!filtered}
          onEdit={(item) => setEditing({ item, isGroup: item.isGroup })}
          onDelete={setDeleting}
          onOnline={(item, online) => update(item, { online }, () => setUserQuickFunctionOnline(item.userQuickFunctionId, online))}
          onPin={(item, pinned) => update(item, { pinned }, () => saveUserQuickFunction({ ...saveBodyOf(item), pinned }))}
          onMove={move}
          onGroup={(item, parentId) => update(item, { parentId }, () => groupUserQuickFunction(item.userQuickFunctionId, parentId))}
          submissions={sharing.submissions}
          onShare={sharing.onShare}
          onWithdraw={sharing.onWithdraw}
        />
      )}
      <PromptLibrary own={items} onAdded={() => void change(async () => undefined, t('quickFunctions.saved'))} />
      {sharing.modal}
      <PromptFormModal
        opened={editing !== null}
        item={editing?.item ?? null}
        isGroup={editing?.isGroup ?? false}
        groups={groups}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          void change(async () => undefined, t('quickFunctions.saved'));
        }}
      />
      <ConfirmDialog
        opened={deleting !== null}
        title={t('quickFunctions.deleteTitle')}
        message={deleting ? t(deleting.isGroup ? 'quickFunctions.deleteGroupMessage' : 'quickFunctions.deleteMessage', { name: deleting.name }) : ''}
        confirmLabel={t('quickFunctions.delete')}
        cancelLabel={t('quickFunctions.cancel')}
        danger
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const item = deleting;
          setDeleting(null);
          if (item) void change(() => deleteUserQuickFunction(item.userQuickFunctionId), t('quickFunctions.deleted'));
        }}
      />
    </>
  );
}

/**
 * Sharing the user's prompts to the community library: the library state of each own prompt (a
 * shared copy whose own prompt was deleted has none here), the share dialog, and withdrawing.
 */
function useSharing(token: string | null) {
  const { t } = useTranslation();
  const change = useChange();
  const [sharing, setSharing] = useState<UserQuickFunction | null>(null);
  const shared = useQuery(mySubmissionsQuery(token));
  const submissions = useMemo(
    () => new Map((shared.data ?? []).flatMap((s): [string, PromptSubmission][] => (s.userQuickFunctionId ? [[s.userQuickFunctionId, s]] : []))),
    [shared.data],
  );
  const modal = (
    <SharePromptModal
      item={sharing}
      submission={sharing ? submissions.get(sharing.userQuickFunctionId) : undefined}
      onClose={() => setSharing(null)}
      onShared={() => {
        setSharing(null);
        void change(async () => undefined, t('quickFunctions.share.sent'));
      }}
    />
  );
  return {
    submissions,
    modal,
    onShare: setSharing,
    onWithdraw: (_item: UserQuickFunction, submission: PromptSubmission) =>
      void change(() => withdrawSubmission(submission.promptSubmissionId), t('quickFunctions.share.withdrawn')),
  };
}

/** Search, new prompt, new group, import and export. */
function Toolbar({ search, onSearch, onAdd }: { search: string; onSearch: (value: string) => void; onAdd: (isGroup: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Button leftSection={<IconPlus size={16} />} onClick={() => onAdd(false)}>
          {t('quickFunctions.add')}
        </Button>
        <Button variant="default" leftSection={<IconFolder size={16} />} onClick={() => onAdd(true)}>
          {t('quickFunctions.addGroup')}
        </Button>
        <ImportExport />
      </Group>
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={t('quickFunctions.search')}
        aria-label={t('quickFunctions.search')}
        value={search}
        onChange={(e) => onSearch(e.currentTarget.value)}
      />
    </Stack>
  );
}

/** Export to a JSON file; import from one, checked item by item, with a report of what was skipped and why. */
function ImportExport() {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const change = useChange();
  const [report, setReport] = useState<ImportReport | null>(null);

  const exportAll = async () => {
    try {
      const file = exportFileName();
      downloadJson(file, await exportUserQuickFunctions());
      notifySuccess(t('quickFunctions.exported', { file }));
    } catch {
      notifyError(t('quickFunctions.exportFailed'));
    }
  };

  const importFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = '';
    if (!file) return;
    const checked = checkImportFile(t, await file.text());
    if (!checked.ok) return setReport({ imported: 0, problems: [], error: checked.error });
    if (checked.file.items.length === 0) return setReport({ imported: 0, problems: checked.problems });
    await change(async () => {
      try {
        setReport({ imported: await importUserQuickFunctions(checked.file), problems: checked.problems });
      } catch (error) {
        setReport({ imported: 0, problems: checked.problems, error: t('quickFunctions.importReport.failed', { message: error instanceof Error ? error.message : String(error) }) });
      }
    });
  };

  return (
    <>
      <Button variant="default" leftSection={<IconUpload size={16} />} onClick={() => input.current?.click()}>
        {t('quickFunctions.import')}
      </Button>
      <input ref={input} type="file" accept="application/json,.json" hidden data-testid="prompt-import-file" onChange={(e) => void importFile(e)} />
      <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => void exportAll()}>
        {t('quickFunctions.export')}
      </Button>
      <Modal opened={report !== null} onClose={() => setReport(null)} title={t('quickFunctions.importReport.title')} centered>
        {report && <ImportReportView report={report} onClose={() => setReport(null)} />}
      </Modal>
    </>
  );
}

function ImportReportView({ report, onClose }: { report: ImportReport; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="import-report">
      {report.error ? (
        <Alert color="red" variant="light" role="alert">
          {report.error}
        </Alert>
      ) : (
        <Text size="sm" fw={600} role="status">
          {report.imported === 0
            ? t('quickFunctions.importReport.nothing')
            : t('quickFunctions.importReport.summary', { imported: report.imported, skipped: report.problems.length })}
        </Text>
      )}
      {report.problems.length > 0 && (
        <List size="sm" spacing={4}>
          {report.problems.map((problem) => (
            <List.Item key={problem.index}>
              {t('quickFunctions.importReport.item', { index: problem.index, name: problem.name })}: {problem.reasons.join('; ')}
            </List.Item>
          ))}
        </List>
      )}
      <Group justify="flex-end">
        <Button onClick={onClose}>{t('quickFunctions.importReport.close')}</Button>
      </Group>
    </Stack>
  );
}
