import { lazy, Suspense } from 'react';
import { useLocation, useParams } from 'wouter';
import type { SessionActions } from '../chat-history/session-actions.ts';
import { PageSuspense } from './page-suspense.tsx';

/**
 * Sharing and export inside other screens: a chat's Share and Export items in the history's menu
 * (the plain menu shows until their chunk arrives), the settings' list of links, and the public
 * page /share/{id}. All fetched when first shown.
 */
const Actions = lazy(() => import('../share/session-share-actions.tsx').then((module) => ({ default: module.SessionShareActions })));

export const shareSessionActions: SessionActions = (props) => (
  <Suspense fallback={props.renderItems(null)}>
    <Actions {...props} />
  </Suspense>
);

export const ShareSettingsSection = lazy(() => import('../share/share-settings-section.tsx').then((module) => ({ default: module.ShareSettingsSection })));

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
