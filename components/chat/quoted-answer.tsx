import { ActionIcon, Text } from '@mantine/core';
import { useCallback, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { stripProductTags } from '../../shared/utils/strip-tags.ts';
import { IconQuote, IconX } from '../ui/icons.tsx';
import type { ChatTurn, SendOptions } from './use-chat.ts';
import strings from '../../locales/features/chat-quote.en.json';

addEnglishStrings(strings);

/** An earlier answer waiting in the composer: sent with the next question as the attachment kind "chat message". */
export interface QuotedAnswer {
  chatMessageId: string;
  /** What the chip and the sent question show (the server sends the model the stored answer). */
  text: string;
}

/**
 * The answer attached to the next question: "Ask about this answer" under an answer sets it (the page
 * selection waiting in the composer gives way, `clearSelection`: one attached text per question) and
 * puts the cursor in the text box; sending takes it (`take`: as the message's attached text), the
 * chip's × drops it.
 */
export function useQuotedAnswer(clearSelection: () => void, input: RefObject<HTMLTextAreaElement | null>) {
  const [quoted, setQuoted] = useState<QuotedAnswer | null>(null);
  const gives = useRef(clearSelection);
  gives.current = clearSelection;
  // Stable: the memoized turns keep their action.
  const quote = useCallback(
    (turn: ChatTurn) => {
      if (!turn.chatMessageId) return;
      setQuoted({ chatMessageId: turn.chatMessageId, text: stripProductTags(turn.output).trim() });
      gives.current();
      input.current?.focus();
    },
    [input],
  );
  const take = (): SendOptions['selection'] => {
    if (!quoted) return null;
    setQuoted(null);
    return { text: quoted.text, title: '', url: '', chatMessageId: quoted.chatMessageId };
  };
  const chip = quoted ? <QuotedAnswerChip text={quoted.text} onRemove={() => setQuoted(null)} /> : null;
  return { quote, take, chip };
}

/** The chip above the text box: the answer's first words and the way to remove it. */
function QuotedAnswerChip({ text, onRemove }: { text: string; onRemove: () => void }) {
  const { t } = useTranslation();
  return (
    <div
      data-testid="quoted-answer-chip"
      role="status"
      aria-label={t('chat.quote.chipLabel')}
      style={{ display: 'flex', alignItems: 'center', gap: 6, padding: '4px 6px', marginBottom: 4, borderRadius: 6, background: 'var(--tandem-surface)', border: '1px solid var(--mantine-color-default-border)' }}
    >
      <IconQuote size={14} />
      <Text size="xs" lineClamp={2} style={{ flex: 1, minWidth: 0 }}>
        “{text.slice(0, 200)}”
      </Text>
      <ActionIcon variant="subtle" color="gray" size="xs" aria-label={t('chat.quote.remove')} onClick={onRemove}>
        <IconX size={12} />
      </ActionIcon>
    </div>
  );
}
