import { lazy, Suspense, useState } from 'react';
import { useLocation, useParams } from 'wouter';
import type { ChatAddons } from '../chat/chat-addons.ts';
import type { SessionActions } from '../chat-history/session-actions.ts';
import type { AnswerExportProps } from '../share/answer-export.tsx';
import { deferred } from '../ui/deferred.tsx';
import { PageSuspense } from './page-suspense.tsx';
import { lazyPiece } from '../ui/error-boundary.tsx';

/**
 * Sharing and export inside other screens: a chat's Share and Export items in the history's menu
 * and in the open chat's header (chat-header.tsx; the plain menu shows until their chunk arrives),
 * the settings' list of links, and the public page /share/{id}. All fetched when first shown.
 */
export const ShareMenuItems = lazyPiece(() => import('../share/session-share-actions.tsx').then((module) => ({ default: module.ShareMenuItems })));
export const ShareDialog = lazyPiece(() => import('../share/share-dialog.tsx').then((module) => ({ default: module.ShareDialog })));

/**
 * The history's menu stays the same component while the chunk loads: only the items and the
 * dialog wait for it, so a menu opened before it arrives stays open and gains the items.
 */
export const ShareSessionActions: SessionActions = ({ session, renderItems }) => {
  const [sharing, setSharing] = useState(false);
  return (
    <>
      {renderItems(
        <Suspense fallback={null}>
          <ShareMenuItems session={session} onShare={() => setSharing(true)} />
        </Suspense>,
      )}
      <Suspense fallback={null}>
        <ShareDialog session={sharing ? session : null} onClose={() => setSharing(false)} />
      </Suspense>
    </>
  );
};

/** One answer's download (Markdown or PDF) among its actions: a chunk fetched after the first screen. */
const AnswerExport = deferred<AnswerExportProps>(() => import('../share/answer-export.tsx').then((module) => module.AnswerExport)).Component;

export const chatShareAddons: ChatAddons = {
  answerActions: ({ exchange }) => <AnswerExport exchange={exchange} />,
};

export const ShareSettingsSection = lazyPiece(() => import('../share/share-settings-section.tsx').then((module) => ({ default: module.ShareSettingsSection })));

const SharedChatPage = lazy(() => import('../share/shared-chat-page.tsx').then((module) => ({ default: module.SharedChatPage })));

export function SharedChatRoute() {
  const { shareId = '' } = useParams<{ shareId: string }>();
  const [, navigate] = useLocation();
  return (
    <PageSuspense>
      <SharedChatPage shareId={shareId} onStart={() => navigate('/')} />
    </PageSuspense>
  );
}
