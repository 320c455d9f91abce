import { ActionIcon, Text } from '@mantine/core';
import { useAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pendingChatActionAtom, type SentMessage } from '../../shared/atoms/pending-action.ts';
import type { ModelListItem } from '../../shared/contracts/model.ts';
import type { ChatSelection, MessageQuickFunction } from '../../shared/contracts/quick-function.ts';
import type { PendingAction } from '../../shared/contracts/selection-action.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import type { ActiveTab } from '../../shared/platform/platform.ts';
import { imageFileFrom } from '../../shared/utils/image-file.ts';
import { IconFileText, IconX } from '../ui/icons.tsx';
import { notifyError } from '../ui/notify.ts';
import strings from '../../locales/features/chat-selection.en.json';

addEnglishStrings(strings);

/** What the chat view gives the page's actions (the selection toolbar, context menus, the shortcut). */
export interface PendingActionHost {
  /** The chat open now: an action starts a new chat, so it waits until the route is at / (undefined). */
  sessionId: string | undefined;
  loggedIn: boolean;
  model: ModelListItem | undefined;
  models: readonly ModelListItem[];
  /** The attachments are still uploading. */
  busy: boolean;
  /** An answer is streaming (a send now would be refused). */
  streaming: boolean;
  /** How many attachments are ready to go. */
  ready: number;
  send: (text: string, extra: { quickFunction?: MessageQuickFunction | null; selection?: ChatSelection | null; sent?: SentMessage }) => void;
  readTab: (tab: ActiveTab) => void;
  addFile: (file: File) => string | null;
  chooseModel: (aiModelId: string) => void;
  openLogin: () => void;
  focusInput: () => void;
}

/** A vision model the user may use: the current one when it sees images, else the first that does. */
export function visionModel(current: ModelListItem | undefined, models: readonly ModelListItem[]): ModelListItem | undefined {
  if (current?.modelMap.isImage) return current;
  return models.find((m) => m.modelMap.isImage && !m.locked);
}

type Waiting = { kind: 'summary'; sawBusy: boolean } | { kind: 'image'; srcUrl: string } | null;

/**
 * Runs what the page sent to the side panel (shared/atoms/pending-action.ts), once, in a new chat:
 * - a tool: sends at once with the quick function and the selection (the normal send path); when the
 *   panel's first script sent it already (`sent`), the chat shows that message and streams its answer;
 * - "Ask": the selection waits above the text box (`selection`, shown by `chip`) for the question;
 * - a page: reads the tab's page in as "Read this page" does, and for "Summarize" sends when read;
 * - an image: attaches it, switching to a model that sees images first (or says there is none).
 * A visitor gets the login dialog instead.
 */
export function usePendingChatAction(host: PendingActionHost) {
  const { t } = useTranslation();
  const [envelope, setEnvelope] = useAtom(pendingChatActionAtom);
  const [selection, setSelection] = useState<ChatSelection | null>(null);
  const [waiting, setWaiting] = useState<Waiting>(null);
  const hostRef = useRef(host);
  hostRef.current = host;

  // The entrypoint moves to a new chat (/) when an action arrives: it runs there, once the chat is at
  // / (seen at least once: an answer that was streaming at / may have moved the route on since).
  const reachedNewChat = useRef<string | null>(null);
  useEffect(() => {
    if (!envelope) return;
    if (host.sessionId === undefined) reachedNewChat.current = envelope.id;
    if (reachedNewChat.current !== envelope.id) return;
    const h = hostRef.current;
    // Sent already (only a tool's is): shown without waiting for the login or the model list; its
    // answer says what went wrong, as a send's would. (An answer streaming now is never so in a panel
    // that opened for it.)
    if (envelope.sent) {
      if (h.streaming) return;
      setEnvelope(null);
      run(envelope.action, envelope.sent);
      return;
    }
    if (!h.loggedIn) {
      setEnvelope(null);
      h.openLogin();
      return;
    }
    // The model list is still loading (a panel opened for this action), or a send would be refused now: wait.
    if (!h.model || h.busy || h.streaming) return;
    setEnvelope(null);
    run(envelope.action);
    // Runs when an action arrives and when what it waits for (the route, the login, the model) is there.
  }, [envelope, host.sessionId, host.loggedIn, host.model, host.busy, host.streaming]);

  function run(action: PendingAction, sent?: SentMessage) {
    const h = hostRef.current;
    if (action.kind === 'tool') {
      h.send('', { quickFunction: { quickFunctionId: action.quickFunctionId, name: action.name, icon: action.icon }, selection: action.selection, sent });
    } else if (action.kind === 'ask') {
      setSelection(action.selection);
      h.focusInput();
    } else if (action.kind === 'page') {
      h.readTab(action.tab);
      if (action.mode === 'summarize') setWaiting({ kind: 'summary', sawBusy: false });
      else h.focusInput();
    } else {
      const vision = visionModel(h.model, h.models);
      if (!vision) return notifyError(t('chat.selection.noVisionModel'));
      if (vision !== h.model) h.chooseModel(vision.aiModelId);
      setWaiting({ kind: 'image', srcUrl: action.srcUrl });
    }
  }

  // "Summarize this page": sent once the page has been read (or given up when reading failed).
  useEffect(() => {
    if (waiting?.kind !== 'summary') return;
    if (host.busy) {
      if (!waiting.sawBusy) setWaiting({ kind: 'summary', sawBusy: true });
      return;
    }
    if (!waiting.sawBusy && host.ready === 0) return;
    setWaiting(null);
    if (host.ready > 0) hostRef.current.send(t('chat.selection.summarizePage'), {});
  }, [waiting, host.busy, host.ready, t]);

  // An image: attached once the model that sees it is the current one.
  useEffect(() => {
    if (waiting?.kind !== 'image' || !host.model?.modelMap.isImage) return;
    setWaiting(null);
    imageFileFrom(waiting.srcUrl).then(
      (file) => {
        const refused = hostRef.current.addFile(file);
        if (refused) notifyError(refused);
        else hostRef.current.focusInput();
      },
      () => notifyError(t('chat.selection.imageFailed')),
    );
  }, [waiting, host.model, t]);

  const chip = selection ? <SelectionChip selection={selection} onRemove={() => setSelection(null)} /> : null;
  return { selection, clearSelection: () => setSelection(null), chip };
}

/** The selection waiting in the composer ("Ask"): where it comes from and its first words. */
function SelectionChip({ selection, onRemove }: { selection: ChatSelection; onRemove: () => void }) {
  const { t } = useTranslation();
  const title = selection.title || selection.url || '';
  return (
    <div
      data-testid="selection-chip"
      role="status"
      aria-label={t('chat.selection.chipLabel', { title })}
      style={{ display: 'flex', alignItems: 'center', gap: 6, padding: '4px 6px', marginBottom: 4, borderRadius: 6, background: 'var(--tandem-surface)', border: '1px solid var(--mantine-color-default-border)' }}
    >
      <IconFileText size={14} />
      <Text size="xs" lineClamp={2} style={{ flex: 1, minWidth: 0 }}>
        “{selection.text.slice(0, 200)}”{title ? ` — ${title}` : ''}
      </Text>
      <ActionIcon variant="subtle" color="gray" size="xs" aria-label={t('chat.selection.remove')} onClick={onRemove}>
        <IconX size={12} />
      </ActionIcon>
    </div>
  );
}
