import { ActionIcon, Badge, Group, Menu, UnstyledButton } from '@mantine/core';
import { useContext, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatSessionItem } from '../../shared/contracts/chat.ts';
import en from '../../locales/features/chat-resume.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { IconDots, IconPin } from '../ui/icons.tsx';
import { SessionActionsContext } from './session-actions.ts';
import { SessionMenuDropdown, SessionTitleInput, useSessionDelete, useSessionRename } from './session-edit.tsx';

addEnglishStrings(en);

export interface SessionItemProps {
  session: ChatSessionItem;
  active: boolean;
  onNavigate: (path: string) => void;
}

/** The session's menu (rename, pin, what other features add, delete) and the question before deleting it. */
function SessionMenu({ session, active, onNavigate, onRename }: SessionItemProps & { onRename: () => void }) {
  const { t } = useTranslation();
  const remove = useSessionDelete(session, () => active && onNavigate('/'));
  const Extra = useContext(SessionActionsContext);
  const menu = (extra: ReactNode) => (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('chat.sider.itemActions', { title: session.sessionTitle })}>
          <IconDots size={16} />
        </ActionIcon>
      </Menu.Target>
      <SessionMenuDropdown session={session} onRename={onRename} onDelete={remove.ask} extra={extra} />
    </Menu>
  );
  return (
    <>
      {Extra ? <Extra session={session} renderItems={menu} /> : menu(null)}
      {remove.dialog}
    </>
  );
}

/** One chat of the history: opens it, and renames (inline), pins or deletes it (after a confirmation). */
export function SessionItem({ session, active, onNavigate }: SessionItemProps) {
  const { t } = useTranslation();
  const rename = useSessionRename(session);

  if (rename.editing) return <SessionTitleInput rename={rename} />;

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
      {session.pinned && (
        <span title={t('chatHistory.pinnedMark')} data-testid="session-pinned" style={{ display: 'flex', flexShrink: 0, color: 'var(--mantine-color-dimmed)' }}>
          <IconPin size={12} />
        </span>
      )}
      {session.answering && (
        <Badge size="xs" variant="light" style={{ flexShrink: 0 }} title={t('chatResume.answeringHint')} data-testid="session-answering">
          {t('chatResume.answering')}
        </Badge>
      )}
      <SessionMenu session={session} active={active} onNavigate={onNavigate} onRename={rename.start} />
    </Group>
  );
}
