import { atom } from 'jotai';
import { z } from 'zod';
import { IdSchema } from '../contracts/common.ts';
import { definePersisted } from '../storage/persisted.ts';
import { userInfoAtom } from './auth.ts';
import { atomWithPersisted } from './persisted.ts';

/** AddMessage accepts at most this many pluginIds (shared/contracts/chat.ts). */
export const MAX_CHAT_PLUGINS = 20;

const PluginIdsSchema = z.array(IdSchema).max(MAX_CHAT_PLUGINS);

/**
 * The function plugins each user switched on for their messages, by userId: two people sharing a
 * browser keep their own choice, and signing out does not lose it.
 */
export const chatPluginsPersisted = definePersisted<Record<string, string[]>>({
  key: 'tandem.chat.plugins',
  version: 1,
  schema: z.record(z.string().min(1).max(64), PluginIdsSchema),
  fallback: {},
});

const chatPluginsStoreAtom = atomWithPersisted(chatPluginsPersisted);

const NONE: readonly string[] = Object.freeze([]);

/**
 * The plugin ids the signed-in user switched on (none for a visitor). Ids the server no longer offers
 * stay stored; the picker sends only the ones it lists as available. Writing is ignored for a visitor.
 */
export const chatPluginIdsAtom = atom(
  (get): readonly string[] => {
    const user = get(userInfoAtom);
    return (user && get(chatPluginsStoreAtom)[user.userId]) || NONE;
  },
  async (get, set, ids: readonly string[]): Promise<void> => {
    const user = get(userInfoAtom);
    if (!user) return;
    const next = [...new Set(ids)].slice(0, MAX_CHAT_PLUGINS);
    await set(chatPluginsStoreAtom, { ...get(chatPluginsStoreAtom), [user.userId]: next });
  },
);
