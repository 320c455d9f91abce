import { useSyncExternalStore } from 'react';
import { useLocation } from 'wouter';
import { FULLSCREEN_QUERY, isInstalledAppMode, STANDALONE_QUERY } from '../../shared/platform/display-mode.ts';

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const lists = [window.matchMedia(STANDALONE_QUERY), window.matchMedia(FULLSCREEN_QUERY)];
  for (const list of lists) list.addEventListener?.('change', onChange);
  return () => {
    for (const list of lists) list.removeEventListener?.('change', onChange);
  };
}

const matches = (query: string) => typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
/** A number, so useSyncExternalStore compares snapshots by value. */
const snapshot = () => (matches(STANDALONE_QUERY) ? 1 : 0) + (matches(FULLSCREEN_QUERY) ? 2 : 0);

/**
 * Whether the page is in installed-app mode now (shared/platform/display-mode.ts): follows the route
 * and the display mode (a user may switch an installed app to full screen), unlike the platform's
 * start-up value.
 */
export function useInstalledAppMode(): boolean {
  const [path] = useLocation();
  const mode = useSyncExternalStore(subscribe, snapshot, () => 0);
  return isInstalledAppMode(path, { standalone: (mode & 1) !== 0, fullscreen: (mode & 2) !== 0 });
}
