import { Menu } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { chatSessionQuery } from '../../shared/api/chat-history.ts';
import { modelListQuery } from '../../shared/api/chat.ts';
import { isLoggedInAtom, userInfoAtom } from '../../shared/atoms/auth.ts';
import { chatModelAtom } from '../../shared/atoms/chat.ts';
import type { ChatSessionItem } from '../../shared/contracts/chat.ts';
import { resolveModel } from '../../shared/utils/default-model.ts';
import { SessionHeader } from '../chat-history/session-header.tsx';
import { modelName } from '../chat/model-name.ts';
import { IconSettings } from '../ui/icons.tsx';
import { lazyPiece } from '../ui/error-boundary.tsx';
import { ShareDialog, ShareMenuItems } from './chat-share.tsx';

/** The chat's settings (temperature, answer length, system prompt): a chunk fetched when first opened. */
const ChatSettingsDialog = lazyPiece(() => import('../chat/chat-settings.tsx').then((module) => ({ default: module.ChatSettingsDialog })));

export interface ChatHeaderProps {
  /** The open chat (/{id}). */
  sessionId: string;
  onNavigate: (path: string) => void;
  /** The narrow layouts' top bar (phone, side panel): every action in the "…" menu. */
  compact?: boolean;
  /** What shows until the chat's title is known (and for a chat that is not the caller's). */
  fallback?: ReactNode;
}

/** The model the composer's picker shows (the same query and choice it reads): its name and id. */
function useCurrentModel(): { name: string; aiModelId: string } | null {
  const { t } = useTranslation();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const planLevel = useAtomValue(userInfoAtom)?.vipOrder?.vipPackageLevel ?? 0;
  const models = useQuery(modelListQuery(loggedIn, planLevel));
  const model = resolveModel(models.data ?? [], useAtomValue(chatModelAtom));
  return model ? { name: modelName(model, t), aiModelId: model.aiModelId } : null;
}

/** The header with the share feature's pieces: Share… and Export in the menu, the share dialog once first asked for. */
function SharingHeader({ session, onNavigate, compact }: { session: Pick<ChatSessionItem, 'chatSessionId' | 'sessionTitle' | 'pinned'>; onNavigate: (path: string) => void; compact: boolean }) {
  const { t } = useTranslation();
  const model = useCurrentModel();
  // The dialog (its chunk, and its list of links) is mounted once first asked for: null until then.
  const [sharing, setSharing] = useState<boolean | null>(null);
  // The same for the chat's settings.
  const [settings, setSettings] = useState<boolean | null>(null);
  const share = () => setSharing(true);
  return (
    <>
      <SessionHeader
        session={session}
        model={model?.name ?? null}
        compact={compact}
        onNavigate={onNavigate}
        onShare={share}
        menuItems={
          <>
            <Menu.Item leftSection={<IconSettings size={14} />} onClick={() => setSettings(true)} disabled={!model} data-testid="chat-settings-item">
              {t('chatHeader.settings')}
            </Menu.Item>
            {/* The menu's items load with the share chunk when it first opens; the wide layout's Share is a button of its own. */}
            <Suspense fallback={null}>
              <ShareMenuItems session={session} onShare={compact ? share : undefined} />
            </Suspense>
          </>
        }
      />
      {settings !== null && model && (
        <Suspense fallback={null}>
          <ChatSettingsDialog chatSessionId={settings ? session.chatSessionId : null} aiModelId={model.aiModelId} onClose={() => setSettings(false)} />
        </Suspense>
      )}
      {sharing !== null && (
        <Suspense fallback={null}>
          <ShareDialog session={sharing ? session : null} onClose={() => setSharing(false)} />
        </Suspense>
      )}
    </>
  );
}

/**
 * The open chat's header (chat-history's SessionHeader with sharing and export, and the model the
 * composer shows): the history's per-chat actions for the chat on screen. The title comes from the
 * history when it lists the chat, else from the server (GetChatSession). Shown only for a saved chat
 * of the signed-in account; `fallback` until then.
 */
export function ChatHeader({ sessionId, onNavigate, compact = false, fallback = null }: ChatHeaderProps) {
  const queryClient = useQueryClient();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const { data: session } = useQuery({ ...chatSessionQuery(queryClient, sessionId), enabled: loggedIn });
  if (!loggedIn || !session) return fallback;
  return <SharingHeader key={session.chatSessionId} session={session} onNavigate={onNavigate} compact={compact} />;
}
