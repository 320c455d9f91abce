import { lazy } from 'react';
import { useLocation, useParams } from 'wouter';
import { PageSuspense } from './page-suspense.tsx';
import { lazyPiece } from '../ui/error-boundary.tsx';

/**
 * The favourites pages: /ans-fav/list (saved answers) and /ans-fav/edit/{id} (edit one, with the back
 * bar on a narrow screen). Each is a chunk fetched when first opened. The source link opens the chat
 * at the message (/{chatSessionId}?message={chatMessageId}).
 */
const FavouritesPage = lazy(() => import('../favourites/favourites-page.tsx').then((module) => ({ default: module.FavouritesPage })));
const FavouriteEditPage = lazy(() => import('../favourites/favourite-edit-page.tsx').then((module) => ({ default: module.FavouriteEditPage })));
/** Settings' way to the saved answers: fetched with the settings page. */
export const FavouritesSettingsSection = lazyPiece(() =>
  import('../favourites/favourites-entry.tsx').then((module) => ({ default: module.FavouritesSettingsSection })),
);

export const FAVOURITES_PATH = '/ans-fav/list';

const sourcePath = (chatSessionId: string, chatMessageId: string) => `/${encodeURIComponent(chatSessionId)}?message=${encodeURIComponent(chatMessageId)}`;

export function FavouritesRoute() {
  const [, navigate] = useLocation();
  return (
    <PageSuspense>
      <FavouritesPage
        onBack={() => navigate('/')}
        onEdit={(favouriteId) => navigate(`/ans-fav/edit/${encodeURIComponent(favouriteId)}`)}
        onOpenSource={(sessionId, messageId) => navigate(sourcePath(sessionId, messageId))}
      />
    </PageSuspense>
  );
}

/** The id of the address; one that is not valid percent-encoding is taken as it is (and is not found). */
function decodedId(id: string): string {
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}

export function FavouriteEditRoute() {
  const [, navigate] = useLocation();
  const { id = '' } = useParams<{ id: string }>();
  return (
    <PageSuspense>
      <FavouriteEditPage
        favouriteId={decodedId(id)}
        onBack={() => navigate(FAVOURITES_PATH)}
        onOpenSource={(sessionId, messageId) => navigate(sourcePath(sessionId, messageId))}
      />
    </PageSuspense>
  );
}
