import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Menu, TextInput } from '@mantine/core';
import { useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteSessions, removeSessionFromCache, renameSessionInCache, updateSessionTitle } from '../../shared/api/chat-history.ts';
import { MAX_SESSION_TITLE_CHARS, type ChatSessionItem } from '../../shared/contracts/chat.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { IconPencil, IconPin, IconPinOff, IconTrash } from '../ui/icons.tsx';
import { notifyError, notifySuccess, onMutationError } from '../ui/notify.ts';
import { useSessionPin } from './session-pin.ts';

type SessionRef = Pick<ChatSessionItem, 'chatSessionId' | 'sessionTitle'>;

/**
 * Renaming a chat in place (in the history and the open chat's header): Enter or leaving the field saves, Escape
 * cancels; an empty name is refused with chat.sider.conversationNameRequire. The history and every
 * other view of the chat follow through the query cache (renameSessionInCache).
 */
export function useSessionRename(session: SessionRef) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(session.sessionTitle);
  // Enter commits and unmounts the input; the blur that may follow must not commit a second time.
  const settled = useRef(false);

  const rename = useMutation({
    mutationFn: (sessionTitle: string) => updateSessionTitle({ chatSessionId: session.chatSessionId, sessionTitle }),
    onSuccess: (_data, sessionTitle) => {
      renameSessionInCache(queryClient, session.chatSessionId, sessionTitle);
      notifySuccess(t('chat.sider.renameConversationSuccess'));
    },
    onError: onMutationError(t('chat.sider.renameConversationError')),
  });

  const start = () => {
    settled.current = false;
    setDraft(session.sessionTitle);
    setEditing(true);
  };
  const commit = () => {
    if (settled.current) return;
    const title = draft.trim();
    if (!title) {
      notifyError(t('chat.sider.conversationNameRequire'));
      return;
    }
    settled.current = true;
    setEditing(false);
    if (title !== session.sessionTitle) rename.mutate(title);
  };
  const cancel = () => {
    settled.current = true;
    setEditing(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter while an IME composes a word picks the word, it does not submit.
    if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
      event.preventDefault();
      commit();
    } else if (event.key === 'Escape') {
      // Escape ends the edit only: a drawer or dialog around the field stays open.
      event.stopPropagation();
      cancel();
    }
  };
  /** Leaving the field saves a name, and drops an empty one without the error (as the history does). */
  const onBlur = () => (draft.trim() ? commit() : cancel());
  return { editing, draft, setDraft, start, commit, cancel, onKeyDown, onBlur, saving: rename.isPending };
}

/** The field a chat is renamed in, wherever its title shows (the history, the header). */
export function SessionTitleInput({ rename, style }: { rename: ReturnType<typeof useSessionRename>; style?: CSSProperties }) {
  const { t } = useTranslation();
  return (
    <TextInput
      size="xs"
      autoFocus
      aria-label={t('chat.sider.renameLabel')}
      value={rename.draft}
      maxLength={MAX_SESSION_TITLE_CHARS}
      onChange={(event) => rename.setDraft(event.currentTarget.value)}
      onKeyDown={rename.onKeyDown}
      onBlur={rename.onBlur}
      onFocus={(event) => event.currentTarget.select()}
      style={style}
    />
  );
}

/**
 * Deleting a chat after the history's question ("Delete this chat?"): `ask` opens it, `dialog` is
 * rendered by the caller; once deleted the chat leaves the history and `onDeleted` runs.
 */
export function useSessionDelete(session: SessionRef, onDeleted: () => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteSessions({ ids: [session.chatSessionId], isDelAll: false }),
    onSuccess: () => {
      setConfirming(false);
      removeSessionFromCache(queryClient, session.chatSessionId);
      notifySuccess(t('chat.sider.deleteConversationSuccess'));
      onDeleted();
    },
    onError: onMutationError(t('chat.sider.deleteConversationError')),
  });
  const dialog = (
    <ConfirmDialog
      opened={confirming}
      title={t('chat.sider.deleteConfirmTitle')}
      message={t('chat.sider.deleteConfirm', { title: session.sessionTitle })}
      confirmLabel={t('chat.sider.delete')}
      cancelLabel={t('common.cancel')}
      loading={remove.isPending}
      danger
      onConfirm={() => remove.mutate()}
      onCancel={() => setConfirming(false)}
    />
  );
  return { ask: () => setConfirming(true), dialog };
}

/** A chat's menu, in the history and in the open chat's header: Rename, Pin or Unpin, what other features add, Delete. */
export function SessionMenuDropdown({ session, onRename, onDelete, extra }: { session: Pick<ChatSessionItem, 'chatSessionId' | 'pinned'>; onRename: () => void; onDelete: () => void; extra: ReactNode }) {
  const { t } = useTranslation();
  const pin = useSessionPin(session);
  return (
    <Menu.Dropdown>
      <Menu.Item leftSection={<IconPencil size={14} />} onClick={onRename}>
        {t('chat.sider.rename')}
      </Menu.Item>
      <Menu.Item leftSection={session.pinned ? <IconPinOff size={14} /> : <IconPin size={14} />} disabled={pin.pending} onClick={pin.toggle}>
        {t(session.pinned ? 'chatHistory.unpin' : 'chatHistory.pin')}
      </Menu.Item>
      {extra}
      <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={onDelete}>
        {t('chat.sider.delete')}
      </Menu.Item>
    </Menu.Dropdown>
  );
}
