import { ActionIcon, Button, Group, Menu, Text, Tooltip, UnstyledButton, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/chat-header.en.json';
import type { ChatSessionItem } from '../../shared/contracts/chat.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { IconDots, IconUpload } from '../ui/icons.tsx';
import { SessionMenuDropdown, SessionTitleInput, useSessionDelete, useSessionRename } from './session-edit.tsx';

addEnglishStrings(en);

export interface SessionHeaderProps {
  session: Pick<ChatSessionItem, 'chatSessionId' | 'sessionTitle' | 'pinned'>;
  /** The name of the model the composer will use; null while unknown. */
  model: string | null;
  /**
   * The narrow layouts (phone, the extension's side panel): title and model fill the top bar's middle
   * and every action is in the "…" menu. Otherwise a row of its own, with Share beside the menu.
   */
  compact?: boolean;
  onNavigate: (path: string) => void;
  /** Opens the share dialog (the wide layout's Share button). */
  onShare: () => void;
  /** What other features add to the menu between Rename and Delete (the layout: Share…, Export). */
  menuItems?: ReactNode;
}

/** The chat's title as a heading; a click on it renames the chat in place. */
function HeaderTitle({ session, rename, compact }: { session: SessionHeaderProps['session']; rename: ReturnType<typeof useSessionRename>; compact: boolean }) {
  const { t } = useTranslation();
  if (rename.editing) return <SessionTitleInput rename={rename} style={{ flex: 1, minWidth: 0 }} />;
  return (
    <Text component="h1" m={0} fw={600} fz={compact ? 14 : 16} lh={1.3} style={{ minWidth: 0, overflow: 'hidden' }}>
      <UnstyledButton
        onClick={rename.start}
        title={`${session.sessionTitle}\n${t('chatHeader.renameHint')}`}
        style={{ display: 'block', maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', font: 'inherit', color: 'inherit' }}
      >
        {session.sessionTitle}
      </UnstyledButton>
    </Text>
  );
}

/** The "…" menu: Rename, Pin, what the layout adds (Share…, Export), Delete: the history's menu for this chat. */
function HeaderMenu({ session, onRename, onDelete, items }: { session: SessionHeaderProps['session']; onRename: () => void; onDelete: () => void; items: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={t('chatHeader.more')} style={{ flexShrink: 0 }}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <SessionMenuDropdown session={session} onRename={onRename} onDelete={onDelete} extra={items} />
    </Menu>
  );
}

/**
 * The open chat's header, where users of ChatGPT and Sider look for a chat's actions: its title
 * (click to rename in place: Enter saves, Escape cancels), the model the composer will use, Share,
 * the "…" menu (Rename, Pin, Export, Delete after the history's question, then a new chat). While the
 * title is edited the actions step aside, so the menu does not take the focus back from the field.
 */
export function SessionHeader({ session, model, compact = false, onNavigate, onShare, menuItems }: SessionHeaderProps) {
  const { t } = useTranslation();
  const rename = useSessionRename(session);
  const remove = useSessionDelete(session, () => onNavigate('/'));
  const menu = !rename.editing && <HeaderMenu session={session} onRename={rename.start} onDelete={remove.ask} items={menuItems} />;
  const modelLabel = !rename.editing && model && (
    <Text size="xs" c="dimmed" lh={1.3} truncate="end" title={t('chatHeader.model', { model })} data-testid="chat-header-model" style={{ minWidth: 0 }}>
      <span aria-hidden="true">{model}</span>
      <VisuallyHidden>{t('chatHeader.model', { model })}</VisuallyHidden>
    </Text>
  );

  if (compact) {
    return (
      <Group gap={2} wrap="nowrap" style={{ flex: 1, minWidth: 0 }} data-testid="chat-header">
        <div style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', justifyContent: 'center' }}>
          <HeaderTitle session={session} rename={rename} compact />
          {modelLabel}
        </div>
        {menu}
        {remove.dialog}
      </Group>
    );
  }
  return (
    <Group component="header" aria-label={t('chatHeader.label')} gap={8} wrap="nowrap" style={{ flex: 1, minWidth: 0 }} data-testid="chat-header">
      <Group gap={10} wrap="nowrap" align="baseline" style={{ flex: 1, minWidth: 0 }}>
        <HeaderTitle session={session} rename={rename} compact={false} />
        {modelLabel}
      </Group>
      {!rename.editing && (
        <Tooltip label={t('chatHeader.shareLabel')}>
          <Button variant="default" size="xs" leftSection={<IconUpload size={14} />} aria-label={t('chatHeader.shareLabel')} onClick={onShare} style={{ flexShrink: 0 }}>
            {t('chatHeader.share')}
          </Button>
        </Tooltip>
      )}
      {menu}
      {remove.dialog}
    </Group>
  );
}
