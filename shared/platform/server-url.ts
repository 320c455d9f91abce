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

/** The server URL without a trailing slash: the one chosen in the settings, else the build's default. */
export function serverUrlFor(chosen: string | null): string {
  return (chosen ?? DEFAULT_SERVER_URL).replace(/\/+$/, '');
}

/**
 * Where the API lives: the web app is served by the server itself (same origin); the extension
 * uses the chosen server or the build's default.
 */
export function apiBaseFor(isExtension: boolean, chosen: string | null): string {
  return isExtension ? serverUrlFor(chosen) : '';
}

/** The origin of a URL, or null when it is absent or not a URL. */
export function originOf(url: string | undefined | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
