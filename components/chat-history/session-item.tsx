import { ActionIcon, Badge, Group, Menu, TextInput, UnstyledButton } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useContext, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteSessions, removeSessionFromCache, renameSessionInCache, updateSessionTitle } from '../../shared/api/chat-history.ts';
import type { ChatSessionItem } from '../../shared/contracts/chat.ts';
import { MAX_SESSION_TITLE_CHARS } from '../../shared/contracts/chat.ts';
import en from '../../locales/features/chat-resume.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { IconDots, IconPencil, IconTrash } from '../ui/icons.tsx';
import { notifyError, notifySuccess, onMutationError } from '../ui/notify.ts';
import { SessionActionsContext } from './session-actions.ts';

addEnglishStrings(en);

export interface SessionItemProps {
  session: ChatSessionItem;
  active: boolean;
  onNavigate: (path: string) => void;
}

/** Renaming a session in place: Enter or leaving the field saves, Escape cancels; an empty name is refused. */
function useSessionRename(session: SessionItemProps['session']) {
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
      cancel();
    }
  };
  return { editing, draft, setDraft, start, commit, cancel, onKeyDown };
}

/** The session's menu (rename, what other features add, delete) and the question before deleting it. */
function SessionMenu({ session, active, onNavigate, onRename }: SessionItemProps & { onRename: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteSessions({ ids: [session.chatSessionId], isDelAll: false }),
    onSuccess: () => {
      setConfirming(false);
      removeSessionFromCache(queryClient, session.chatSessionId);
      notifySuccess(t('chat.sider.deleteConversationSuccess'));
      if (active) onNavigate('/');
    },
    onError: onMutationError(t('chat.sider.deleteConversationError')),
  });
  const Extra = useContext(SessionActionsContext);
  const menu = (extra: ReactNode) => (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('chat.sider.itemActions', { title: session.sessionTitle })}>
          <IconDots size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconPencil size={14} />} onClick={onRename}>
          {t('chat.sider.rename')}
        </Menu.Item>
        {extra}
        <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => setConfirming(true)}>
          {t('chat.sider.delete')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
  return (
    <>
      {Extra ? <Extra session={session} renderItems={menu} /> : menu(null)}
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
    </>
  );
}

/** One chat of the history: opens it, and renames (inline) or deletes it (after a confirmation). */
export function SessionItem({ session, active, onNavigate }: SessionItemProps) {
  const { t } = useTranslation();
  const rename = useSessionRename(session);

  if (rename.editing) {
    return (
      <TextInput
        size="xs"
        autoFocus
        aria-label={t('chat.sider.renameLabel')}
        value={rename.draft}
        maxLength={MAX_SESSION_TITLE_CHARS}
        onChange={(event) => rename.setDraft(event.currentTarget.value)}
        onKeyDown={rename.onKeyDown}
        onBlur={() => (rename.draft.trim() ? rename.commit() : rename.cancel())}
      />
    );
  }

  return (
    <Group
      gap={4}
      wrap="nowrap"
      px={8}
      py={4}
      data-active={active || undefined}
      style={{ borderRadius: 6, background: active ? 'var(--mantine-color-default-hover)' : undefined }}
    >
      <UnstyledButton
        onClick={() => onNavigate(`/${session.chatSessionId}`)}
        aria-current={active ? 'page' : undefined}
        title={session.sessionTitle}
        style={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', fontSize: 14 }}
      >
        {session.sessionTitle}
      </UnstyledButton>
      {session.answering && (
        <Badge size="xs" variant="light" style={{ flexShrink: 0 }} title={t('chatResume.answeringHint')} data-testid="session-answering">
          {t('chatResume.answering')}
        </Badge>
      )}
      <SessionMenu session={session} active={active} onNavigate={onNavigate} onRename={rename.start} />
    </Group>
  );
}
