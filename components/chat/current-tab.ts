import { useEffect, useState } from 'react';
import { queryActiveTab, watchActiveTab, type ActiveTab } from '../../shared/platform/extension.ts';

/**
 * The active tab of the last focused window, followed as the user switches tabs or windows and as
 * pages finish loading or change their title. Extension pages only: the caller renders it only
 * when `usePlatform().isExtension` (the web page has no `browser.tabs`).
 */
export function useCurrentTab(): ActiveTab | null {
  const [tab, setTab] = useState<ActiveTab | null>(null);

  useEffect(() => {
    let alive = true;
    // Answers can come back out of order: only the latest query's is kept.
    let latest = 0;
    const refresh = () => {
      const asked = ++latest;
      queryActiveTab().then(
        (found) => {
          if (alive && asked === latest) setTab(found);
        },
        (error: unknown) => {
          console.warn('reading the active tab failed', error);
          if (alive && asked === latest) setTab(null);
        },
      );
    };
    refresh();
    const unwatch = watchActiveTab(refresh);
    return () => {
      alive = false;
      unwatch();
    };
  }, []);

  return tab;
}
