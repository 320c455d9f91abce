import { ActionIcon, Button, Center, Loader, Text } from '@mantine/core';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { IconArrowDown } from '../ui/icons.tsx';
import { MessageItem } from './message-item.tsx';
import type { ChatTurn } from './use-chat.ts';

/** Turns rendered at once; scrolling to the top reveals earlier ones a window at a time. */
export const RENDER_WINDOW = 40;
/** Within this distance of the bottom the view follows the stream. */
const STICK_PX = 80;

export interface MessageListProps {
  turns: ChatTurn[];
  streaming: boolean;
  hasEarlier: boolean;
  loading: boolean;
  loadError: string | null;
  onLoadEarlier: () => void;
  onRetry: (turn: ChatTurn) => void;
  onDelete: (turn: ChatTurn) => void;
  onEdit: (turn: ChatTurn, input: string) => void;
  onSwitchVersion: (turn: ChatTurn, chatMessageId: string) => void;
  /** Attach an answer to a new question. */
  onQuote?: (turn: ChatTurn) => void;
  /** Shown when there are no turns (the welcome). */
  empty: ReactNode;
  /** A message to scroll to and mark once it is loaded (a link to it: a saved answer's source). */
  focusMessageId?: string;
}

/**
 * The conversation. Only the last RENDER_WINDOW turns are mounted (and off-screen ones skip layout
 * and paint through content-visibility), so a long chat stays fast. The view follows a streaming
 * answer unless the reader scrolled up; then a button brings them back down.
 */
export function MessageList(props: MessageListProps) {
  const { turns, streaming, hasEarlier, loading, loadError, onLoadEarlier, onRetry, onDelete, onEdit, onSwitchVersion, onQuote, empty, focusMessageId } = props;
  const { t } = useTranslation();
  const viewport = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const [atBottom, setAtBottom] = useState(true);
  const [windowSize, setWindowSize] = useState(RENDER_WINDOW);
  /** Height before earlier turns were added above, to keep the reader's place. */
  const anchor = useRef<number | null>(null);

  const scrollToBottom = useCallback(() => {
    const el = viewport.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  const onScroll = () => {
    const el = viewport.current;
    if (!el) return;
    const near = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
    stick.current = near;
    setAtBottom(near);
    if (el.scrollTop < 40) {
      if (turns.length > windowSize) {
        anchor.current = el.scrollHeight;
        setWindowSize((n) => n + RENDER_WINDOW);
      } else if (hasEarlier && !loading) {
        anchor.current = el.scrollHeight;
        setWindowSize((n) => n + RENDER_WINDOW);
        onLoadEarlier();
      }
    }
  };

  // Earlier turns added above keep the reader where they were; new content at the end is followed.
  useLayoutEffect(() => {
    const el = viewport.current;
    if (!el) return;
    if (anchor.current !== null) {
      el.scrollTop += el.scrollHeight - anchor.current;
      anchor.current = null;
    } else if (stick.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [turns, windowSize]);

  // Runs after the effect above that keeps the end.
  useFocusMessage({ focusMessageId, turns, windowSize, setWindowSize, viewport, stick, setAtBottom });

  // Growth that React does not see (a highlighted code block, an image loading) is followed too.
  useEffect(() => {
    const el = content.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (stick.current && anchor.current === null) scrollToBottom();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [scrollToBottom]);

  // Sending a message brings the view down to it.
  const lastKey = turns.at(-1)?.key;
  useEffect(() => {
    if (!streaming) return;
    stick.current = true;
    setAtBottom(true);
    scrollToBottom();
  }, [lastKey, streaming, scrollToBottom]);

  const shown = turns.length > windowSize ? turns.slice(turns.length - windowSize) : turns;
  return (
    <div className="chat-scroll" ref={viewport} onScroll={onScroll} data-testid="message-list">
      <div className="chat-content" ref={content}>
        {loading && (
          <Center py="sm">
            <Loader size="sm" aria-label={t('chat.message.loading')} />
          </Center>
        )}
        {loadError && (
          <Center py="sm" style={{ flexDirection: 'column', gap: 4 }}>
            <Text size="sm" c="red">
              {loadError}
            </Text>
            <Button size="xs" variant="subtle" onClick={onLoadEarlier}>
              {t('chat.sider.retry')}
            </Button>
          </Center>
        )}
        {!loading && turns.length === 0 && !loadError ? empty : null}
        {shown.map((turn) => (
          <MessageItem key={turn.key} turn={turn} busy={streaming} onRetry={onRetry} onDelete={onDelete} onEdit={onEdit} onSwitchVersion={onSwitchVersion} onQuote={onQuote} />
        ))}
      </div>
      {!atBottom && (
        <ActionIcon
          className="chat-to-bottom"
          radius="xl"
          variant="default"
          size="lg"
          aria-label={t('chat.message.toBottom')}
          onClick={() => {
            stick.current = true;
            setAtBottom(true);
            scrollToBottom();
          }}
        >
          <IconArrowDown size={16} />
        </ActionIcon>
      )}
    </div>
  );
}

interface FocusMessageOptions {
  focusMessageId: string | undefined;
  turns: ChatTurn[];
  windowSize: number;
  setWindowSize: (size: number) => void;
  viewport: RefObject<HTMLDivElement | null>;
  stick: RefObject<boolean>;
  setAtBottom: (atBottom: boolean) => void;
}

/**
 * A link to one message (?message=<id>, a saved answer's source): once it is among the loaded turns,
 * it is brought into view (the view then stops following the end) and marked for a moment.
 */
function useFocusMessage({ focusMessageId, turns, windowSize, setWindowSize, viewport, stick, setAtBottom }: FocusMessageOptions): void {
  const focused = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (!focusMessageId || focused.current === focusMessageId) return;
    const index = turns.findIndex((turn) => turn.chatMessageId === focusMessageId);
    if (index < 0) return;
    if (turns.length - index > windowSize) return setWindowSize(turns.length - index);
    const found = [...(viewport.current?.querySelectorAll('[data-message-id]') ?? [])].find((el) => el.getAttribute('data-message-id') === focusMessageId);
    if (!found) return;
    focused.current = focusMessageId;
    stick.current = false;
    setAtBottom(false);
    found.scrollIntoView?.({ block: 'start' });
    found.setAttribute('data-focused', '');
    setTimeout(() => found.removeAttribute('data-focused'), 2500);
  }, [focusMessageId, turns, windowSize, setWindowSize, viewport, stick, setAtBottom]);
}
