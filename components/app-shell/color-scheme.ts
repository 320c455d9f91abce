import type { MantineColorScheme, MantineColorSchemeManager } from '@mantine/core';
import { z } from 'zod';
import { definePersisted } from '../../shared/storage/persisted.ts';
import { peekPersisted, watchPersisted, writePersisted } from '../../shared/storage/active.ts';

/**
 * Light, dark, or following the system ('auto', the default). Kept in the page's storage like the
 * language: the side panel and the popup share the extension's, so a choice made in one shows in
 * the other at once; the web app keeps its own.
 */
export const colorSchemePersisted = definePersisted<MantineColorScheme>({
  key: 'tandem.colorScheme',
  version: 1,
  schema: z.enum(['light', 'dark', 'auto']),
  fallback: 'auto',
});

let stopWatching: (() => void) | undefined;

/** Mantine's colour scheme kept in the app's storage (loaded by startApp before the first render). */
export const colorSchemeManager: MantineColorSchemeManager = {
  get: () => peekPersisted(colorSchemePersisted),
  // Mantine sets what the watcher reports too: the value already kept is not written (and reported) again.
  set: (value) => {
    if (peekPersisted(colorSchemePersisted) !== value) void writePersisted(colorSchemePersisted, value);
  },
  subscribe: (onUpdate) => {
    stopWatching?.();
    stopWatching = watchPersisted(colorSchemePersisted, onUpdate);
  },
  unsubscribe: () => {
    stopWatching?.();
    stopWatching = undefined;
  },
  clear: () => void writePersisted(colorSchemePersisted, colorSchemePersisted.fallback),
};
