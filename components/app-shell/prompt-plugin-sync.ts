import type { QueryClient } from '@tanstack/react-query';
import { PROMPT_PLUGIN_QUERY_KEY, promptPluginVersionPersisted } from '../../shared/atoms/user-config.ts';
import { peekPersisted, watchPersisted } from '../../shared/storage/active.ts';

/**
 * Refetches the prompt and plugin lists (every query under PROMPT_PLUGIN_QUERY_KEY) whenever the
 * extension's promptPluginVersion moves: the web app changed them and sent updatePromptPlugin.
 * For extension pages that show those lists; returns the unsubscribe.
 */
export function watchPromptPluginUpdates(queryClient: QueryClient): () => void {
  let last = peekPersisted(promptPluginVersionPersisted);
  return watchPersisted(promptPluginVersionPersisted, (version) => {
    if (version === last) return;
    last = version;
    void queryClient.invalidateQueries({ queryKey: PROMPT_PLUGIN_QUERY_KEY });
  });
}
