import { ActionIcon, Alert, Box, Button, Group, Text, Tooltip } from '@mantine/core';
import { lazy, memo, Suspense, useContext, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { stripProductTags } from '../../shared/utils/strip-tags.ts';
import { deferred } from '../ui/deferred.tsx';
import { IconCopy, IconPencil, IconQuote, IconRefresh, IconTrash } from '../ui/icons.tsx';
import { SentMedia } from './attachments.tsx';
import { ChatAddonsContext } from './chat-addons.ts';
import { SentQuickFunction, SentSelection } from './quick-functions.tsx';
import type { QuestionEditorProps } from './question-editor.tsx';
import { VersionSwitch } from './turn-versions.tsx';
import type { ChatTurn } from './use-chat.ts';

/**
 * The markdown renderer (markdown-it and the view) is a chunk of its own: a page that shows no answer
 * yet (the welcome screen) does not wait for it. It is fetched when the chat view mounts
 * (preloadMarkdownView); an answer met before it arrives shows as plain text meanwhile.
 */
const loadMarkdownView = () => import('../ui/markdown-view.tsx');
const MarkdownView = lazy(() => loadMarkdownView().then((module) => ({ default: module.MarkdownView })));

/** Tool calls and sources show only on answers that have them: chunks of their own, fetched then. */
const ToolCalls = lazy(() => import('./tool-calls.tsx').then((module) => ({ default: module.ToolCalls })));
const CitationSources = lazy(() => import('./citation-sources.tsx').then((module) => ({ default: module.CitationSources })));

/** The question's edit box opens only when its pencil is pressed: a chunk fetched once a question shows. */
const Editor = deferred<QuestionEditorProps>(() => import('./question-editor.tsx').then((module) => module.QuestionEditor));
const QuestionEditor = Editor.Component;

export function preloadMarkdownView(): void {
  void loadMarkdownView().catch(() => undefined);
}

export interface MessageItemProps {
  turn: ChatTurn;
  /** Another answer is streaming: retry waits for it. */
  busy: boolean;
  onRetry: (turn: ChatTurn) => void;
  onDelete: (turn: ChatTurn) => void;
  /** The question edited: sent as a new version of its turn. */
  onEdit: (turn: ChatTurn, input: string) => void;
  /** An arrow under the answer: the chat shows that version of the turn. */
  onSwitchVersion: (turn: ChatTurn, chatMessageId: string) => void;
  /** Attach this answer to a new question (the attachment kind "chat message"); absent: no such action. */
  onQuote?: (turn: ChatTurn) => void;
}

/** The user's bubble: what was sent with the question, its text, and the way to edit it (in place). */
function Question({ turn, busy, onEdit }: Pick<MessageItemProps, 'turn' | 'busy' | 'onEdit'>) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  useEffect(() => void Editor.preload(), []);
  const input = stripProductTags(turn.input);
  // A message sent with a tool and no text may be stored under the tool's name: the chip says it already.
  const text = input && input !== turn.quickFunction?.name ? input : '';
  if (editing) {
    return (
      <QuestionEditor
        initial={text}
        canBeEmpty={!!turn.quickFunction}
        onCancel={() => setEditing(false)}
        onSend={(edited) => {
          setEditing(false);
          onEdit(turn, edited);
        }}
      />
    );
  }
  return (
    <>
      <Box className="chat-bubble chat-bubble-user" data-author="user">
        {turn.quickFunction && <SentQuickFunction tool={turn.quickFunction} />}
        {turn.selection && <SentSelection selection={turn.selection} />}
        <SentMedia media={turn.media ?? []} />
        {text && (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {text}
          </Text>
        )}
      </Box>
      <Group gap={2} className="chat-actions chat-question-actions">
        <Tooltip label={t('chatVersions.edit')}>
          <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('chatVersions.edit')} onClick={() => setEditing(true)} disabled={busy}>
            <IconPencil size={14} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </>
  );
}

/** One exchange: the user's bubble, then the model's answer with the model's name, its versions and its actions. */
export const MessageItem = memo(function MessageItem({ turn, busy, onRetry, onDelete, onEdit, onSwitchVersion, onQuote }: MessageItemProps) {
  const { t } = useTranslation();
  const { failureNotice, answerActions } = useContext(ChatAddonsContext);
  const [copied, setCopied] = useState(false);
  const streaming = turn.status === 'streaming';
  const answer = stripProductTags(turn.output, { streaming });

  const copy = () => {
    void navigator.clipboard.writeText(answer).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  };

  return (
    <Box className="chat-turn" data-status={turn.status} data-message-id={turn.chatMessageId} data-testid="chat-turn">
      <Question turn={turn} busy={busy} onEdit={onEdit} />
      <Box className="chat-bubble chat-bubble-model" data-author="model">
        {turn.modelName && (
          <Text size="xs" c="dimmed" mb={4} data-testid="answer-model">
            {turn.modelName}
          </Text>
        )}
        {turn.toolCalls && turn.toolCalls.length > 0 && (
          <Suspense fallback={null}>
            <ToolCalls calls={turn.toolCalls} streaming={streaming} chatMessageId={turn.chatMessageId} />
          </Suspense>
        )}
        {(answer || streaming) && (
          <Suspense fallback={<div style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{answer}</div>}>
            <MarkdownView text={answer} streaming={streaming} citations={turn.citations} />
          </Suspense>
        )}
        {turn.citations && turn.citations.length > 0 && (
          <Suspense fallback={null}>
            <CitationSources citations={turn.citations} />
          </Suspense>
        )}
        {turn.status === 'stopped' && (
          <Text size="xs" c="dimmed" mt={4}>
            {t('chat.message.stopped')}
          </Text>
        )}
        {turn.status === 'error' &&
          ((turn.errorCode !== undefined && failureNotice?.(turn.errorCode, turn.error ?? t('chat.modelBusy'))) || (
            <Alert color="red" variant="light" p={8} mt={answer ? 8 : 0} role="alert">
              <Group justify="space-between" gap={8} wrap="nowrap" align="flex-start">
                <Text size="sm">{turn.error ?? t('chat.modelBusy')}</Text>
                {/* Where the user reads what went wrong, the way to try again (the same as Ask again below). */}
                <Button size="compact-xs" variant="light" color="red" onClick={() => onRetry(turn)} disabled={busy} style={{ flexShrink: 0 }}>
                  {t('chat.message.retryFailed')}
                </Button>
              </Group>
            </Alert>
          ))}
        {streaming && <VersionSwitch turn={turn} busy={busy} onSwitch={onSwitchVersion} />}
        {!streaming && (
          <Group gap={2} mt={4} className="chat-actions">
            <VersionSwitch turn={turn} busy={busy} onSwitch={onSwitchVersion} />
            <Tooltip label={copied ? t('chat.message.copied') : t('chat.message.copy')}>
              <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('chat.message.copy')} onClick={copy} disabled={!answer}>
                <IconCopy size={14} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('chat.message.retry')}>
              <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('chat.message.retry')} onClick={() => onRetry(turn)} disabled={busy}>
                <IconRefresh size={14} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('chat.message.delete')}>
              <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('chat.message.delete')} onClick={() => onDelete(turn)} disabled={busy}>
                <IconTrash size={14} />
              </ActionIcon>
            </Tooltip>
            {/* A saved answer with text: the server reads it by its id. */}
            {onQuote && answer && turn.chatMessageId && (
              <Tooltip label={t('chat.quote.action')}>
                <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('chat.quote.action')} onClick={() => onQuote(turn)} data-testid="quote-answer">
                  <IconQuote size={14} />
                </ActionIcon>
              </Tooltip>
            )}
            {/* Other features' actions (save, download) come in chunks of their own: after ours, so that none moves under the pointer when they arrive. */}
            {answer &&
              turn.chatMessageId &&
              answerActions?.({
                chatMessageId: turn.chatMessageId,
                exchange: {
                  inputMessage: turn.input,
                  outputMessage: turn.output,
                  modelName: turn.modelName ?? null,
                  chatMedias: turn.media ?? [],
                  citations: turn.citations ?? [],
                  selection: turn.selection ?? null,
                },
              })}
          </Group>
        )}
      </Box>
    </Box>
  );
});
