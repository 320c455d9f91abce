import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams, useSearch } from 'wouter';
import { isLoggedInAtom } from '../../shared/atoms/auth.ts';
import { openLoginDialogAtom } from '../../shared/atoms/login-dialog.ts';
import type { Platform } from '../../shared/platform/platform.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import type { CampaignCardsProps } from '../campaigns/campaign-card.tsx';
import { useWideLayout } from '../app-shell/wide-layout.ts';
import type { ChatAddons } from '../chat/chat-addons.ts';
import { ChatView } from '../chat/chat-view.tsx';
import { NotificationBell } from '../notifications/notification-bell.tsx';
import type { ChatSidebarProps } from '../chat-history/chat-sidebar.tsx';
import { SIDEBAR_WIDTH } from '../chat-history/sidebar-width.ts';
import { deferred } from '../ui/deferred.tsx';
import { IconMenu, IconPlus, IconSettings } from '../ui/icons.tsx';
import { Drawer } from '../ui/overlays.tsx';
import { chatPlansAddons } from './chat-plans.tsx';
import { chatPointsAddons } from './chat-points.tsx';
import { useChatMissing } from './chat-exists.ts';
import { ChatNotFound, NotFoundRoute } from './newcomers-routes.tsx';
import { chatFavouritesAddons } from './chat-favourites.tsx';
import { chatShareAddons, ShareSessionActions } from './chat-share.tsx';
import type { ChatHeaderProps } from './chat-header.tsx';
import { chatMemoryAddons, MemoryOnboarding } from './chat-memory.tsx';

/**
 * What other features show inside the chat: points, the plans' upgrade prompt, the favourites' save
 * star and the answer's download among its actions, the memory (onboarding, proposals).
 */
const chatAddons: ChatAddons = {
  ...chatPointsAddons,
  ...chatPlansAddons,
  ...chatMemoryAddons,
  answerActions: (answer) => (
    <>
      {chatFavouritesAddons.answerActions?.(answer)}
      {chatShareAddons.answerActions?.(answer)}
    </>
  ),
  // Under the welcome: today's check-in, the campaigns' cards, then the memory onboarding while it is pending.
  welcome: (
    <>
      {chatPointsAddons.welcome}
      <HomeCampaignCards />
      <MemoryOnboarding />
    </>
  ),
};

/** The campaigns' cards on the welcome screen: a chunk fetched after the first screen, as the check-in's. */
const CampaignCards = deferred<CampaignCardsProps>(() => import('../campaigns/campaign-card.tsx').then((module) => module.CampaignCards)).Component;

function HomeCampaignCards() {
  const [, navigate] = useLocation();
  return <CampaignCards home limit={2} onSeeAll={() => navigate('/campaigns')} />;
}

/**
 * The history sidebar is a chunk of its own: the side panel shows it only in a drawer. The wide
 * layout shows it at once, so renderApp waits for it there (preloadChatLayout) before the first render.
 */
const Sidebar = deferred<ChatSidebarProps>(() => import('../chat-history/chat-sidebar.tsx').then((module) => module.ChatSidebar));
const ChatSidebar = Sidebar.Component;
/** The open chat's header, a chunk of its own too: the side panel opens on a new chat, which has none. */
const Header = deferred<ChatHeaderProps>(() => import('./chat-header.tsx').then((module) => module.ChatHeader));
const ChatHeader = Header.Component;

/** Fetches what the first screen of this layout needs beyond the page's entry: the sidebar and the chat's header on a wide screen. */
export function preloadChatLayout(platform: Pick<Platform, 'isH5'>): Promise<void> {
  return platform.isH5 ? Promise.resolve() : Promise.all([Sidebar.preload(), Header.preload()]).then(() => undefined);
}

/**
 * The chat layout at / and /{id}: the sidebar beside the chat on a wide screen (open from the 1260 px
 * breakpoint up, collapsed below it); on a narrow one (mobile web, the extension's side panel) a bar
 * on top and the sidebar in a drawer.
 */
export function ChatLayout() {
  const { t } = useTranslation();
  const { id } = useParams<{ id?: string }>();
  // ?message=<id>: a link to one message of the chat (a saved answer's source) scrolls to it.
  const focusMessageId = new URLSearchParams(useSearch()).get('message') ?? undefined;
  const [, navigate] = useLocation();
  const { isH5 } = usePlatform();
  // Between the mobile threshold and the 1260 px breakpoint the sidebar starts collapsed (60 px).
  const wide = useWideLayout();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const openLogin = useSetAtom(openLoginDialogAtom);
  const [drawer, setDrawer] = useState(false);
  // In the narrow layout the sidebar's and the header's code are fetched once the first screen is up.
  useEffect(() => void Promise.all([Sidebar.preload(), Header.preload()]), []);

  // Signed out (here or on another surface): the account's chat must not stay on screen. Only on
  // the change itself, so a visitor's link to a chat still waits for a URL login (keeps the path).
  const wasLoggedIn = useRef(loggedIn);
  useEffect(() => {
    if (wasLoggedIn.current && !loggedIn && id) navigate('/', { replace: true });
    wasLoggedIn.current = loggedIn;
  }, [loggedIn, id, navigate]);

  const go = (path: string) => {
    setDrawer(false);
    navigate(path);
  };
  // An address that names no chat of this account: "chat not found", still signed in; a visitor's
  // address that cannot be a chat: the not-found page.
  const missing = useChatMissing(id);
  if (missing === 'page') return <NotFoundRoute />;
  // A saved chat's header (title, model, Share, Export, Delete); a new chat and a missing one have none.
  const openChat = loggedIn && id && !missing ? id : undefined;
  const chat = missing ? (
    <ChatNotFound onHome={() => go('/')} />
  ) : (
    // A visitor on a chat's address sees the welcome's way to sign in; the chat opens once signed in.
    <ChatView sessionId={loggedIn ? id : undefined} onSessionCreated={(sessionId) => navigate(`/${sessionId}`, { replace: true })} addons={chatAddons} focusMessageId={focusMessageId} />
  );

  const brand = (
    <Text fw={600} size="sm">
      Tandem
    </Text>
  );

  if (!isH5) {
    return (
      <div style={{ display: 'flex', height: '100dvh' }}>
        <ChatSidebar activeSessionId={id} onNavigate={go} defaultCollapsed={!wide} headerAction={<NotificationBell onNavigate={go} />} sessionActions={ShareSessionActions} />
        <main style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
          <Group justify="flex-end" px="md" py={6} gap={8} wrap="nowrap" mih={42}>
            {openChat && <ChatHeader sessionId={openChat} onNavigate={go} />}
            <Tooltip label={t('settings.title')}>
              <ActionIcon variant="subtle" color="gray" aria-label={t('settings.title')} onClick={() => go('/setting')}>
                <IconSettings />
              </ActionIcon>
            </Tooltip>
          </Group>
          <div style={{ flex: 1, minHeight: 0 }}>{chat}</div>
        </main>
      </div>
    );
  }

  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: '100dvh' }}>
      <Group
        component="header"
        justify="space-between"
        gap={8}
        px={8}
        py={6}
        mih={41}
        wrap="nowrap"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <ActionIcon variant="subtle" color="gray" aria-label={t('chat.sider.label')} onClick={() => setDrawer(true)} style={{ flexShrink: 0 }}>
          <IconMenu />
        </ActionIcon>
        {openChat ? <ChatHeader sessionId={openChat} onNavigate={go} compact fallback={brand} /> : brand}
        <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
          <NotificationBell onNavigate={go} />
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={t('chat.sider.newChat')}
            onClick={() => (loggedIn ? go('/') : openLogin('chat.notLoginTip'))}
          >
            <IconPlus />
          </ActionIcon>
          <ActionIcon variant="subtle" color="gray" aria-label={t('settings.title')} onClick={() => go('/setting')}>
            <IconSettings />
          </ActionIcon>
        </Group>
      </Group>
      <div style={{ flex: 1, minHeight: 0 }}>{chat}</div>
      <Drawer
        opened={drawer}
        onClose={() => setDrawer(false)}
        size={SIDEBAR_WIDTH}
        padding={0}
        withCloseButton={false}
        aria-label={t('chat.sider.label')}
      >
        <div style={{ height: '100dvh', display: 'flex' }}>
          <ChatSidebar activeSessionId={id} onNavigate={go} onClose={() => setDrawer(false)} sessionActions={ShareSessionActions} />
        </div>
      </Drawer>
    </div>
  );
}
