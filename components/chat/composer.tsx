import { ActionIcon, Group, Paper, Textarea, Tooltip } from '@mantine/core';
import { useRef, useState, type ClipboardEvent, type KeyboardEvent, type MutableRefObject, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_INPUT_CHARS } from '../../shared/contracts/chat.ts';
import { IconGlobe, IconSend, IconStop } from '../ui/icons.tsx';
import { ToolButton } from '../ui/tool-button.tsx';

/** What the composer gives its command menu (the "/" menu of quick functions). */
export interface ComposerMenuProps {
  text: string;
  setText: (text: string) => void;
  /** The menu puts its key handler here: it sees each key first and returns true when it took the key. */
  keys: MutableRefObject<((event: KeyboardEvent<HTMLTextAreaElement>) => boolean) | null>;
}

export interface ComposerProps {
  streaming: boolean;
  /** Sends the text; resolves once it is on its way (the composer clears at once). */
  onSend: (text: string) => void;
  onStop: () => void;
  webSearch: boolean;
  onWebSearchChange: (on: boolean) => void;
  /** Why web search cannot be used now (the model or the server lacks it); null when it can. */
  webSearchUnavailable: string | null;
  /** The model picker, shown in the composer's toolbar. */
  modelPicker: ReactNode;
  /** The function-plugin picker, right after web search. */
  plugins?: ReactNode;
  /** More toolbar actions after web search (attach a file, a web page, a screenshot of the tab). */
  tools?: ReactNode;
  /** What is attached to the message, shown above its text. */
  attachments?: ReactNode;
  /** Why the message cannot be sent yet (attachments still loading); the text stays. */
  sendBlocked?: string | null;
  /** Beside the send button: what the message will cost. */
  sendCost?: ReactNode;
  disabled?: boolean;
  /** Files pasted into the message box (images copied from a page or a screenshot tool). */
  onPasteFiles?: (files: File[]) => void;
  /** A menu over the text box that may take keys first (the "/" menu of quick functions). */
  commandMenu?: (menu: ComposerMenuProps) => ReactNode;
  /** The message may go without text (a quick function is chosen); its placeholder then says so. */
  allowEmpty?: string | null;
  textareaRef?: Ref<HTMLTextAreaElement>;
}

/** The model picker's place in the toolbar (see the toolbar below). */
const PICKER_SLOT = { flex: '1 1 88px', minWidth: 0, maxWidth: 'max-content', display: 'flex' } as const;

/**
 * The message box. Enter sends and Shift+Enter starts a new line; an Enter that confirms an IME
 * composition (Chinese, Japanese input) picks the word and sends nothing.
 */
export function Composer({
  streaming,
  onSend,
  onStop,
  webSearch,
  onWebSearchChange,
  webSearchUnavailable,
  modelPicker,
  plugins,
  tools,
  attachments,
  sendBlocked,
  sendCost,
  disabled,
  onPasteFiles,
  commandMenu,
  allowEmpty,
  textareaRef,
}: ComposerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const menuKeys = useRef<((event: KeyboardEvent<HTMLTextAreaElement>) => boolean) | null>(null);
  const canSend = !streaming && !disabled && !sendBlocked && (text.trim().length > 0 || !!allowEmpty);

  const submit = () => {
    if (!canSend) return;
    onSend(text.trim());
    setText('');
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = Array.from(event.clipboardData?.files ?? []);
    if (!onPasteFiles || files.length === 0) return;
    // Text copied with a picture of itself (office apps) still pastes as text; a lone picture does not.
    if (!event.clipboardData.types.includes('text/plain')) event.preventDefault();
    onPasteFiles(files);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (menuKeys.current?.(event)) {
      event.preventDefault();
      return;
    }
    // keyCode 229 is what some browsers report for the Enter that ends a composition.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing || event.keyCode === 229) return;
    event.preventDefault();
    submit();
  };

  const searchLabel = webSearchUnavailable ?? (webSearch ? t('chat.composer.webSearchOn') : t('chat.composer.webSearchOff'));
  return (
    <Paper withBorder radius={6} p={6} pos="relative" data-testid="composer">
      {commandMenu?.({ text, setText, keys: menuKeys })}
      {attachments}
      <Textarea
        ref={textareaRef}
        variant="unstyled"
        autosize
        minRows={1}
        maxRows={8}
        px={4}
        value={text}
        maxLength={MAX_INPUT_CHARS}
        placeholder={allowEmpty ?? t('chat.composer.placeholder')}
        aria-label={t('chat.composer.label')}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
      />
      <Group justify="space-between" gap={6} wrap="nowrap">
        {/* The picker's basis is a few letters of its name: it grows up to the whole name when there is
            room, cuts it with an ellipsis when not, and only when even that does not fit (the side panel
            at 320 px with every tool) does a tool move to a second line. */}
        <Group gap={6} wrap="wrap" style={{ minWidth: 0 }}>
          {modelPicker && (
            <div style={PICKER_SLOT} data-testid="model-picker-slot">
              {modelPicker}
            </div>
          )}
          <ToolButton
            label={searchLabel}
            unavailable={webSearchUnavailable}
            pressed={webSearch}
            onClick={() => onWebSearchChange(!webSearch)}
          >
            <IconGlobe size={16} />
          </ToolButton>
          {plugins}
          {tools}
        </Group>
        <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
          {sendCost}
          {streaming ? (
            <ActionIcon size={30} color="red" variant="light" aria-label={t('chat.composer.stop')} onClick={onStop}>
              <IconStop size={16} />
            </ActionIcon>
          ) : (
            <Tooltip label={sendBlocked} withArrow disabled={!sendBlocked}>
              <span>
                <ActionIcon size={30} aria-label={t('chat.composer.send')} aria-description={sendBlocked ?? undefined} disabled={!canSend} onClick={submit}>
                  <IconSend size={16} />
                </ActionIcon>
              </span>
            </Tooltip>
          )}
        </Group>
      </Group>
    </Paper>
  );
}
