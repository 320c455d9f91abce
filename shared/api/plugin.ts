import { queryOptions } from '@tanstack/react-query';
import { PROMPT_PLUGIN_QUERY_KEY } from '../atoms/user-config.ts';
import { PluginListSchema, PluginTypes, type Plugin } from '../contracts/plugin.ts';
import type { Scene } from '../platform/platform.ts';
import { apiGet } from './request.ts';

/**
 * GetPluginListAll for the app's scene, keeping only FUNCTION plugins (page plugins
 * are not used by this client).
 */
export async function getPluginList(scene: Scene, signal?: AbortSignal): Promise<Plugin[]> {
  const list = await apiGet('/api/Plugin/GetPluginListAll', { scene }, { data: PluginListSchema, signal });
  return list.filter((plugin) => plugin.pluginType === PluginTypes.function);
}

/**
 * The function plugins offered in `scene`, cached like the model list. Under PROMPT_PLUGIN_QUERY_KEY,
 * so a plugin change made in the web app (message updatePromptPlugin) refetches it.
 */
export function pluginListQuery(scene: Scene, loggedIn: boolean) {
  return queryOptions({
    queryKey: [...PROMPT_PLUGIN_QUERY_KEY, 'plugins', scene, loggedIn] as const,
    queryFn: ({ signal }) => getPluginList(scene, signal),
    staleTime: 5 * 60_000,
  });
}
