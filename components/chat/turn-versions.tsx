import { ActionIcon, Box, Button, Group, Text, Textarea } from '@mantine/core';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/chat-versions.en.json';
import { MAX_INPUT_CHARS } from '../../shared/contracts/chat.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { IconChevronLeft, IconChevronRight } from '../ui/icons.tsx';
import { versionIndexOf, versionsOf, type ChatTurn } from './use-chat.ts';

addEnglishStrings(en);

/**
 * "‹ 2/3 ›" under an answer whose turn has more than one version (Ask again, an edited question): the
 * arrows show the previous or next version and its branch below (docs/api.md#answer-versions).
 */
export function VersionSwitch({ turn, busy, onSwitch }: { turn: ChatTurn; busy: boolean; onSwitch: (turn: ChatTurn, chatMessageId: string) => void }) {
  const { t } = useTranslation();
  const ids = versionsOf(turn);
  const index = versionIndexOf(turn);
  if (ids.length < 2 || index < 1) return null;
  const go = (to: number) => {
    const id = ids[to - 1];
    if (id) onSwitch(turn, id);
  };
  return (
    <Group gap={0} wrap="nowrap" role="group" aria-label={t('chatVersions.position', { index, count: ids.length })} data-testid="answer-versions">
      <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('chatVersions.previous')} disabled={busy || index <= 1} onClick={() => go(index - 1)}>
        <IconChevronLeft size={14} />
      </ActionIcon>
      <Text size="xs" c="dimmed" px={2} style={{ fontVariantNumeric: 'tabular-nums' }} aria-hidden>
        {index}/{ids.length}
      </Text>
      <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('chatVersions.next')} disabled={busy || index >= ids.length} onClick={() => go(index + 1)}>
        <IconChevronRight size={14} />
      </ActionIcon>
    </Group>
  );
}

/**
 * A sent question being edited, in place of its bubble: Enter (or Send) sends the new text as a new
 * version of the turn, Shift+Enter starts a new line, Esc (or Cancel) leaves it as it was. `canBeEmpty`:
 * the turn used a quick function, which needs no text.
 */
export function QuestionEditor({ initial, canBeEmpty, onCancel, onSend }: { initial: string; canBeEmpty: boolean; onCancel: () => void; onSend: (text: string) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(initial);
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = input.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const ready = text.trim().length > 0 || canBeEmpty;
  const send = () => {
    if (ready) onSend(text.trim());
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  return (
    <Box className="chat-bubble chat-question-editor" data-testid="question-editor">
      <Textarea
        ref={input}
        autosize
        minRows={1}
        maxRows={12}
        maxLength={MAX_INPUT_CHARS}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={onKeyDown}
        aria-label={t('chatVersions.editLabel')}
      />
      <Group justify="flex-end" gap={6} mt={6}>
        <Button size="compact-sm" variant="default" onClick={onCancel}>
          {t('chatVersions.cancel')}
        </Button>
        <Button size="compact-sm" onClick={send} disabled={!ready}>
          {t('chatVersions.send')}
        </Button>
      </Group>
    </Box>
  );
}
