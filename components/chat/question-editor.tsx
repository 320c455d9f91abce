import { Box, Button, Group, Textarea } from '@mantine/core';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/chat-versions.en.json';
import { MAX_INPUT_CHARS } from '../../shared/contracts/chat.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';

addEnglishStrings(en);

export interface QuestionEditorProps {
  initial: string;
  canBeEmpty: boolean;
  onCancel: () => void;
  onSend: (text: string) => void;
}

/**
 * A sent question being edited, in place of its bubble: Enter (or Send) sends the new text as a new
 * version of the turn, Shift+Enter starts a new line, Esc (or Cancel) leaves it as it was. `canBeEmpty`:
 * the turn used a quick function, which needs no text. A chunk of its own, fetched once a question
 * shows (message-item.tsx): it opens only when its pencil is pressed.
 */
export function QuestionEditor({ initial, canBeEmpty, onCancel, onSend }: QuestionEditorProps) {
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
