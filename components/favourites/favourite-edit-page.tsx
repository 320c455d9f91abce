import { ActionIcon, Alert, Anchor, Box, Button, Center, Group, Loader, SegmentedControl, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useDeferredValue, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/favourites.en.json';
import { favouriteQuery, favouritesKey, updateFavourite } from './api.ts';
import { isLoggedInAtom, tokenAtom } from '../../shared/atoms/auth.ts';
import { MAX_FAVOURITE_ANSWER_CHARS, MAX_FAVOURITE_QUESTION_CHARS, type FavouriteItem } from '../../shared/contracts/favourites.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { SignInPrompt } from '../app-shell/sign-in-prompt.tsx';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { notifySuccess, onMutationError } from '../ui/notify.ts';
import { PageFrame } from '../ui/page-frame.tsx';
import { applyMarkdownFormat, type MarkdownFormat } from './markdown-format.ts';
import './favourites.css';

addEnglishStrings(en);

/** The chat's own renderer: the preview shows the answer exactly as the chat would. */
const MarkdownView = lazy(() => import('../ui/markdown-view.tsx').then((module) => ({ default: module.MarkdownView })));

export interface FavouriteEditPageProps {
  favouriteId: string;
  /** Back to the list (after saving, cancelling or discarding). */
  onBack: () => void;
  onOpenSource: (chatSessionId: string, chatMessageId: string) => void;
}

/**
 * Edit a saved answer (/ans-fav/edit/{id}): its Markdown in a text box with a formatting toolbar, and
 * a live preview rendered by the chat's renderer (side by side on a wide screen, Write/Preview on a
 * narrow one, with the back bar on top). Saving changes only the saved copy. Leaving with unsaved
 * changes asks first (and the browser asks before the page is closed or reloaded).
 */
export function FavouriteEditPage({ favouriteId, onBack, onOpenSource }: FavouriteEditPageProps) {
  const { t } = useTranslation();
  const { isH5 } = usePlatform();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const token = useAtomValue(tokenAtom);
  const item = useQuery({ ...favouriteQuery(token, favouriteId), enabled: loggedIn });
  // The editor tells the frame's back button whether leaving needs a question first.
  const leave = useRef<() => void>(onBack);

  let body;
  if (!loggedIn) body = <SignInPrompt message={t('favourites.signInPrompt')} signInLabel={t('favourites.signIn')} notice="chat.notLoginTip" />;
  else if (item.isPending)
    body = (
      <Center py="xl">
        <Loader size="sm" />
      </Center>
    );
  else if (item.isError)
    body = (
      <Alert color="red" role="alert">
        {t('favourites.editor.notFound')}
      </Alert>
    );
  else body = <Editor key={item.data.updateTime} item={item.data} onBack={onBack} onOpenSource={onOpenSource} leave={leave} narrow={isH5} />;

  return (
    <PageFrame
      title={t('favourites.editor.title')}
      backLabel={t('favourites.editor.back')}
      onBack={() => leave.current()}
      narrow={isH5}
      width={isH5 ? 720 : 1200}
      backBarTestId="favourite-edit-back-bar"
    >
      {body}
    </PageFrame>
  );
}

const TOOLBAR: MarkdownFormat[] = ['heading', 'bold', 'italic', 'code', 'codeBlock', 'link', 'list', 'numbered', 'quote'];
const TOOL_SIGNS: Record<MarkdownFormat, string> = {
  heading: 'H',
  bold: 'B',
  italic: 'I',
  code: '<>',
  codeBlock: '{ }',
  link: '🔗',
  list: '•',
  numbered: '1.',
  quote: '❝',
};

interface EditorProps {
  item: FavouriteItem;
  onBack: () => void;
  onOpenSource: FavouriteEditPageProps['onOpenSource'];
  leave: { current: () => void };
  narrow: boolean;
}

function Editor({ item, onBack, onOpenSource, leave, narrow }: EditorProps) {
  const { t } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const queryClient = useQueryClient();
  const [answer, setAnswer] = useState(item.answer);
  const [question, setQuestion] = useState(item.question);
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const [asking, setAsking] = useState(false);
  // The preview follows typing without holding it up on a long answer.
  const preview = useDeferredValue(answer);
  const dirty = answer !== item.answer || question !== item.question;
  const error = !answer.trim()
    ? t('favourites.editor.required')
    : answer.length > MAX_FAVOURITE_ANSWER_CHARS
      ? t('favourites.editor.tooLong', { max: MAX_FAVOURITE_ANSWER_CHARS })
      : null;

  leave.current = () => (dirty ? setAsking(true) : onBack());
  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);

  const save = useMutation({
    mutationFn: () => updateFavourite({ favouriteId: item.favouriteId, answer, question: question.trim() || item.question }),
    onSuccess: (saved) => {
      queryClient.setQueryData(favouriteQuery(token, item.favouriteId).queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: [...favouritesKey, 'list'] });
      notifySuccess(t('favourites.editor.savedToast'));
      onBack();
    },
    onError: onMutationError(),
  });

  const writePane = <WritePane answer={answer} onChange={setAnswer} error={error} narrow={narrow} />;
  const previewPane = (
    <Box className="fav-editor-preview" data-testid="favourite-preview" aria-label={t('favourites.editor.preview')}>
      <Suspense fallback={<Loader size="xs" />}>
        <MarkdownView text={preview} />
      </Suspense>
    </Box>
  );

  return (
    <Stack gap="md">
      <Textarea
        value={question}
        onChange={(event) => setQuestion(event.currentTarget.value)}
        label={t('favourites.question')}
        autosize
        minRows={1}
        maxRows={4}
        maxLength={MAX_FAVOURITE_QUESTION_CHARS}
      />
      <SourceLine item={item} onOpenSource={onOpenSource} />
      {narrow ? (
        <>
          <SegmentedControl
            value={tab}
            onChange={(value) => setTab(value as 'write' | 'preview')}
            data={[
              { value: 'write', label: t('favourites.editor.write') },
              { value: 'preview', label: t('favourites.editor.preview') },
            ]}
          />
          {tab === 'write' ? writePane : previewPane}
        </>
      ) : (
        <div className="fav-editor">
          {writePane}
          <Stack gap={6}>
            <Text size="sm" fw={500} mt={34}>
              {t('favourites.editor.preview')}
            </Text>
            {previewPane}
          </Stack>
        </div>
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={() => leave.current()} disabled={save.isPending}>
          {t('favourites.editor.cancel')}
        </Button>
        <Button onClick={() => save.mutate()} loading={save.isPending} disabled={!dirty || error !== null}>
          {t('favourites.editor.save')}
        </Button>
      </Group>
      <ConfirmDialog
        opened={asking}
        title={t('favourites.editor.unsavedTitle')}
        message={t('favourites.editor.unsavedMessage')}
        confirmLabel={t('favourites.editor.discard')}
        cancelLabel={t('favourites.editor.keepEditing')}
        danger
        onConfirm={() => {
          setAsking(false);
          onBack();
        }}
        onCancel={() => setAsking(false)}
      />
    </Stack>
  );
}

interface WritePaneProps {
  answer: string;
  onChange: (answer: string) => void;
  error: string | null;
  narrow: boolean;
}

/** The Markdown source with its formatting toolbar and the count of characters. */
function WritePane({ answer, onChange, error, narrow }: WritePaneProps) {
  const { t } = useTranslation();
  const source = useRef<HTMLTextAreaElement>(null);
  const format = (kind: MarkdownFormat) => {
    const el = source.current;
    const edit = applyMarkdownFormat(answer, el?.selectionStart ?? answer.length, el?.selectionEnd ?? answer.length, kind);
    onChange(edit.text);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(edit.start, edit.end);
    });
  };
  return (
    <Stack gap={6} className="fav-editor-source">
      <Group gap={2} role="toolbar" aria-label={t('favourites.editor.toolbar.label')}>
        {TOOLBAR.map((kind) => (
          <Tooltip key={kind} label={t(`favourites.editor.toolbar.${kind}`)}>
            <ActionIcon variant="subtle" color="gray" size="md" aria-label={t(`favourites.editor.toolbar.${kind}`)} onClick={() => format(kind)}>
              <Text size="xs" fw={700} ff={kind === 'code' || kind === 'codeBlock' ? 'monospace' : undefined} fs={kind === 'italic' ? 'italic' : undefined}>
                {TOOL_SIGNS[kind]}
              </Text>
            </ActionIcon>
          </Tooltip>
        ))}
      </Group>
      <Textarea
        ref={source}
        value={answer}
        onChange={(event) => onChange(event.currentTarget.value)}
        label={t('favourites.editor.answer')}
        autosize
        minRows={narrow ? 10 : 16}
        maxRows={narrow ? 18 : 30}
        error={error}
        data-testid="favourite-editor"
      />
      <Text size="xs" c={answer.length > MAX_FAVOURITE_ANSWER_CHARS ? 'red' : 'dimmed'} ta="right">
        {t('favourites.editor.chars', { count: answer.length, max: MAX_FAVOURITE_ANSWER_CHARS })}
      </Text>
    </Stack>
  );
}

/** The model and time of the answer, and the way back to its chat (or that the chat is gone). */
function SourceLine({ item, onOpenSource }: { item: FavouriteItem; onOpenSource: FavouriteEditPageProps['onOpenSource'] }) {
  const { t } = useTranslation();
  const { chatSessionId, chatMessageId } = item;
  return (
    <Group justify="space-between" gap="xs">
      <Text size="xs" c="dimmed">
        {[item.modelName, dayjs(item.answerTime).format('YYYY-MM-DD HH:mm')].filter(Boolean).join(' · ')}
      </Text>
      {item.sourceExists && chatSessionId && chatMessageId ? (
        <Anchor component="button" type="button" size="xs" onClick={() => onOpenSource(chatSessionId, chatMessageId)} data-testid="favourite-source">
          {t('favourites.openSource')}
        </Anchor>
      ) : (
        <Text size="xs" c="orange" data-testid="favourite-source-deleted">
          {t('favourites.sourceDeleted')}
        </Text>
      )}
    </Group>
  );
}
