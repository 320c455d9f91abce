import { promptPluginVersionPersisted } from '../../shared/atoms/user-config.ts';
import type { PageBridge } from '../../shared/messaging/page-bridge.ts';
import { loadPersisted, watchPersisted } from '../../shared/storage/active.ts';

/** How long the web app waits for the extension's bridge before it gives up relaying. */
export const PROMPT_PLUGIN_RELAY_READY_TIMEOUT_MS = 3_000;

/**
 * On the web app: a change to the user's prompts or plugins (announcePromptPluginChange bumps the
 * page's promptPluginVersion) is told to the extension with updatePromptPlugin, whose pages (the side
 * panel, the selection toolbar through the background) refetch their lists without a reload.
 * Extension pages need none of this: they bump the extension's own storage. Returns the stop function.
 */
export function startPromptPluginRelay(bridge: PageBridge, readyTimeoutMs = PROMPT_PLUGIN_RELAY_READY_TIMEOUT_MS): () => void {
  let stopped = false;
  let stopWatching: (() => void) | undefined;
  void (async () => {
    let last = await loadPersisted(promptPluginVersionPersisted);
    if (stopped) return;
    // Watching starts at once (a change made while the bridge answers is not lost); sending waits for it.
    let ready: Promise<boolean> | undefined;
    stopWatching = watchPersisted(promptPluginVersionPersisted, (version) => {
      if (version === last) return;
      last = version;
      ready ??= bridge.ready(readyTimeoutMs);
      void ready.then((up) => {
        if (!up || stopped) return;
        bridge.request('updatePromptPlugin', undefined).catch(() => {
          // The extension went away (reloaded, removed): its lists are fetched fresh when it opens.
        });
      });
    });
  })();
  return () => {
    stopped = true;
    stopWatching?.();
  };
}
