import { z } from 'zod';
import { UserSettingSchema, type UserSetting } from '../contracts/user.ts';
import { definePersisted } from '../storage/persisted.ts';

/**
 * The user's settings as the web app last reported them (message webUpdatesUserSetting), so the
 * extension's pages can use them without a round trip; null until the web app has sent any.
 */
export const userConfigPersisted = definePersisted<UserSetting | null>({
  key: 'tandem.userConfig',
  version: 1,
  schema: UserSettingSchema.nullable(),
  fallback: null,
});

/**
 * Bumped (message updatePromptPlugin) when the user changed prompts or plugins elsewhere: pages
 * watching it refetch every query under PROMPT_PLUGIN_QUERY_KEY.
 */
export const promptPluginVersionPersisted = definePersisted<number>({
  key: 'tandem.promptPluginVersion',
  version: 1,
  schema: z.number().int().min(0),
  fallback: 0,
});

/** The TanStack Query key prefix of every prompt and plugin list. */
export const PROMPT_PLUGIN_QUERY_KEY = ['prompt-plugin'] as const;
