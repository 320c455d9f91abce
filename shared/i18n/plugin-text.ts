import type { TFunction } from 'i18next';
import type { Plugin } from '../contracts/plugin.ts';

/** The built-in tools (server/services/plugins/plugins.ts) have names in the UI's language (chat.plugins.tool.*). */
const LOCALIZED_TOOLS = new Set(['web_search', 'read_url', 'generate_image']);

/**
 * A plugin's name and description as the reader sees them, on the user's side and the console's
 * alike: a built-in tool's from the locale files, any other plugin's as the server gives them.
 */
export function pluginText(t: TFunction, plugin: Pick<Plugin, 'toolName' | 'pluginName' | 'description'>): { name: string; description: string } {
  if (!LOCALIZED_TOOLS.has(plugin.toolName)) return { name: plugin.pluginName, description: plugin.description };
  return {
    name: t(`chat.plugins.tool.${plugin.toolName}.name`),
    description: t(`chat.plugins.tool.${plugin.toolName}.description`),
  };
}
