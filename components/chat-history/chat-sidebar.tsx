import { ActionIcon, Box, Button, Group, Menu, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useState, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import translateLinkEn from '../../locales/features/translate-link.en.json';
import { chatSessionsKey, clearSessionsInCache, deleteSessions, moveSessionToTop } from '../../shared/api/chat-history.ts';
import { isLoggedInAtom, userInfoAtom } from '../../shared/atoms/auth.ts';
import type { UserInfo } from '../../shared/contracts/user.ts';
import { openLoginDialogAtom } from '../../shared/atoms/login-dialog.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { HeadImgAvatar } from '../app-shell/head-img.tsx';
import { usePlansLink } from '../app-shell/plans-link.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { IconCoin, IconCrown, IconDots, IconGift, IconLanguage, IconPlus, IconPrompt, IconSearch, IconSidebar, IconStar, IconTrash } from '../ui/icons.tsx';
import { notifySuccess, onMutationError } from '../ui/notify.ts';
import { SearchChatDialog } from './search-chat-dialog.tsx';
import { SessionActionsContext, type SessionActions } from './session-actions.ts';
import { SessionList } from './session-list.tsx';
import { SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_WIDTH } from './sidebar-width.ts';
import { PlanCard } from './plan-card.tsx';

/** The Translate page's name (its own strings come with its chunk). */
addEnglishStrings(translateLinkEn);

export interface ChatSidebarProps {
  /** The chat open at /{id}, highlighted in the list; deleting it goes back to /. */
  activeSessionId?: string;
  /** Route changes go through the caller (the router's navigate), so the sidebar works under any router. */
  onNavigate: (path: string) => void;
  defaultCollapsed?: boolean;
  /** In a drawer (narrow layout) the collapse button closes the drawer instead. */
  onClose?: () => void;
  /** Beside the collapse button (the layout's notification bell). */
  headerAction?: ReactNode;
  /** Items other features add to each chat's menu (the layout's sharing and export). */
  sessionActions?: SessionActions;
}

/** A sidebar action: a full-width button, or an icon with a tooltip when collapsed. */
function SidebarEntry({ collapsed, label, icon, onClick }: { collapsed: boolean; label: string; icon: ReactNode; onClick: () => void }) {
  return collapsed ? (
    <Tooltip label={label} position="right">
      <ActionIcon variant="subtle" size="lg" aria-label={label} onClick={onClick}>
        {icon}
      </ActionIcon>
    </Tooltip>
  ) : (
    <Button variant="subtle" justify="flex-start" leftSection={icon} onClick={onClick} fullWidth>
      {label}
    </Button>
  );
}

/** The history's title, with its menu (delete all). */
function HistoryHeader({ onDeleteAll }: { onDeleteAll: () => void }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" wrap="nowrap" px={8}>
      <Text size="xs" c="dimmed" fw={600}>
        {t('chat.sider.history')}
      </Text>
      <Menu position="bottom-end">
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('chat.sider.historyActions')}>
            <IconDots size={16} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={onDeleteAll}>
            {t('chat.sider.deleteAll')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

/** Where the account's own settings are (picture, nickname, password). */
const ACCOUNT_SETTINGS = '/setting/account';

/** The sidebar's ways to what users keep: saved answers and their prompts, then the invitation, the campaigns and the Translate page. */
const keptPages = (t: TFunction) => [
  { label: t('chat.sider.savedAnswers'), icon: <IconStar size={16} />, path: '/ans-fav/list' },
  { label: t('chat.sider.prompts'), icon: <IconPrompt size={16} />, path: '/prompt_setting' },
  { label: t('invite.title'), icon: <IconGift size={16} />, path: '/invited' },
  { label: t('chat.sider.campaigns'), icon: <IconCoin size={16} />, path: '/campaigns' },
  { label: t('translate.link'), icon: <IconLanguage size={16} />, path: '/translate' },
];

/**
 * Who is signed in: their picture (or initials) with their name and e-mail, opening Settings →
 * Account; collapsed, the picture alone with the name in a tooltip.
 */
function AccountEntry({ user, collapsed, onNavigate }: { user: UserInfo; collapsed: boolean; onNavigate: (path: string) => void }) {
  const { t } = useTranslation();
  const avatar = (size: number) => <HeadImgAvatar user={user} size={size} testId="sidebar-avatar" />;
  const label = t('chatHistory.account', { name: user.userName || user.email });
  if (collapsed) {
    return (
      <Tooltip label={label} position="right">
        <UnstyledButton aria-label={label} onClick={() => onNavigate(ACCOUNT_SETTINGS)} data-testid="sidebar-account" style={{ borderRadius: '50%', display: 'flex' }}>
          {avatar(30)}
        </UnstyledButton>
      </Tooltip>
    );
  }
  return (
    <UnstyledButton
      aria-label={label}
      onClick={() => onNavigate(ACCOUNT_SETTINGS)}
      data-testid="sidebar-account"
      style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '2px 4px', borderRadius: 6, minWidth: 0 }}
    >
      {avatar(30)}
      <div style={{ minWidth: 0 }}>
        <Text size="sm" fw={600} truncate data-testid="sidebar-user-name">
          {user.userName}
        </Text>
        <Text size="xs" c="dimmed" truncate>
          {user.email}
        </Text>
      </div>
    </UnstyledButton>
  );
}

/**
 * The go-premium button (without a plan) and the plan card; both open the plans: /pricing on the web
 * page, vip_url in a new tab from the extension.
 */
function PlanFooter({ user, onNavigate }: { user: UserInfo | null; onNavigate: (path: string) => void }) {
  const { t } = useTranslation();
  const openPlans = usePlansLink();
  return (
    <Stack gap={8}>
      {!user?.vipOrder && (
        <Button leftSection={<IconCrown size={16} />} onClick={() => openPlans(onNavigate)}>
          {t('chat.sider.goPremium')}
        </Button>
      )}
      {user && <PlanCard user={user} onOpen={() => openPlans(onNavigate)} />}
    </Stack>
  );
}

/**
 * State that starts at `value` and goes back to it when `value` changes: the window crossed the wide
 * layout's breakpoint, and the sidebar follows (a toggle made since gives way).
 */
function useFollowing<T>(value: T) {
  const [state, setState] = useState(value);
  useEffect(() => setState(value), [value]);
  return [state, setState] as const;
}

/** The chat layout's sidebar: new chat, search, the history, and the user's plan. */
export function ChatSidebar({ activeSessionId, onNavigate, defaultCollapsed = false, onClose, headerAction, sessionActions }: ChatSidebarProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const user = useAtomValue(userInfoAtom);
  const openLogin = useSetAtom(openLoginDialogAtom);
  const [collapsed, setCollapsed] = useFollowing(defaultCollapsed);
  const [searching, setSearching] = useState(false);
  const [confirmingDeleteAll, setConfirmingDeleteAll] = useState(false);

  // Another account's history must not show after a logout (or be reused by the next login).
  useEffect(() => {
    if (!loggedIn) queryClient.removeQueries({ queryKey: chatSessionsKey });
  }, [loggedIn, queryClient]);

  const requireLogin = (action: () => void) => () => (loggedIn ? action() : openLogin('chat.notLoginTip'));

  const deleteAll = useMutation({
    mutationFn: () => deleteSessions({ ids: [], isDelAll: true }),
    onSuccess: () => {
      setConfirmingDeleteAll(false);
      clearSessionsInCache(queryClient);
      notifySuccess(t('chat.sider.deleteConversationSuccess'));
      onNavigate('/');
    },
    onError: onMutationError(t('chat.sider.deleteConversationError')),
  });

  const entry = (label: string, icon: ReactNode, onClick: () => void) => <SidebarEntry collapsed={collapsed} label={label} icon={icon} onClick={onClick} />;

  return (
    <Box
      component="nav"
      aria-label={t('chat.sider.label')}
      data-collapsed={collapsed || undefined}
      style={{
        width: collapsed ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_WIDTH,
        flexShrink: 0,
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        gap: 8,
        padding: 8,
        background: 'var(--tandem-backdrop)',
        borderRight: '1px solid var(--mantine-color-default-border)',
        transition: 'width 150ms ease',
      }}
    >
      <Group justify={collapsed ? 'center' : 'flex-end'} gap={4} style={collapsed ? { flexDirection: 'column-reverse' } : undefined}>
        {headerAction}
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={onClose ? t('chat.sider.close') : collapsed ? t('chat.sider.expand') : t('chat.sider.collapse')}
          aria-expanded={onClose ? undefined : !collapsed}
          onClick={() => (onClose ? onClose() : setCollapsed((c) => !c))}
        >
          <IconSidebar />
        </ActionIcon>
      </Group>

      <Stack gap={4} align={collapsed ? 'center' : 'stretch'}>
        {entry(t('chat.sider.newChat'), <IconPlus />, requireLogin(() => onNavigate('/')))}
        {entry(t('chat.sider.searchChat'), <IconSearch />, requireLogin(() => setSearching(true)))}
      </Stack>

      {!collapsed && loggedIn && (
        <>
          <HistoryHeader onDeleteAll={() => setConfirmingDeleteAll(true)} />
          <SessionActionsContext.Provider value={sessionActions ?? null}>
            <SessionList activeSessionId={activeSessionId} onNavigate={onNavigate} />
          </SessionActionsContext.Provider>
        </>
      )}
      {(collapsed || !loggedIn) && <div style={{ flex: 1 }} />}

      {!collapsed && loggedIn && (
        // Where users look for what they kept: saved answers and their prompts, then the invitation, the campaigns and the Translate page.
        <Stack gap={0}>
          {keptPages(t).map(({ label, icon, path }) => (
            <Button key={path} variant="subtle" color="gray" justify="flex-start" leftSection={icon} onClick={() => onNavigate(path)} fullWidth>
              {label}
            </Button>
          ))}
        </Stack>
      )}
      {loggedIn && user && (
        <Stack gap={8} align={collapsed ? 'center' : 'stretch'}>
          <AccountEntry user={user} collapsed={collapsed} onNavigate={onNavigate} />
        </Stack>
      )}
      {!collapsed && <PlanFooter user={user} onNavigate={onNavigate} />}

      <SearchChatDialog
        opened={searching}
        onClose={() => setSearching(false)}
        onSelect={(session) => {
          moveSessionToTop(queryClient, session);
          onNavigate(`/${session.chatSessionId}`);
        }}
        onSelectMessage={(hit) => onNavigate(`/${hit.chatSessionId}?message=${encodeURIComponent(hit.chatMessageId)}`)}
      />
      <ConfirmDialog
        opened={confirmingDeleteAll}
        title={t('chat.sider.deleteAllConfirmTitle')}
        message={t('chat.sider.deleteAllConfirm')}
        confirmLabel={t('chat.sider.deleteAll')}
        cancelLabel={t('common.cancel')}
        loading={deleteAll.isPending}
        danger
        onConfirm={() => deleteAll.mutate()}
        onCancel={() => setConfirmingDeleteAll(false)}
      />
    </Box>
  );
}
