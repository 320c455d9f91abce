import { z } from 'zod';
import { definePersisted } from '../storage/persisted.ts';

/**
 * The server this build talks to unless the user picked another one in the settings. Set
 * WXT_SERVER_URL when building (wxt.config.ts reads the same variable for host permissions).
 */
export const DEFAULT_SERVER_URL: string = import.meta.env.WXT_SERVER_URL ?? 'http://localhost:3000';

/** The server chosen in the extension's settings; null keeps the build's default. */
export const serverUrlPersisted = definePersisted<string | null>({
  key: 'tandem.serverUrl',
  version: 1,
  schema: z.url({ protocol: /^https?$/ }).nullable(),
  fallback: null,
});

/**
 * Where the API lives: the web app is served by the server itself (same origin); the extension
 * uses the chosen server or the build's default.
 */
export function apiBaseFor(isExtension: boolean, chosen: string | null): string {
  if (!isExtension) return '';
  return chosen ?? DEFAULT_SERVER_URL;
}
