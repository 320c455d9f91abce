/**
 * The server this build talks to unless the user picked another one in the settings. Set
 * WXT_SERVER_URL when building (wxt.config.ts reads the same variable for host permissions).
 */
export const DEFAULT_SERVER_URL: string = import.meta.env.WXT_SERVER_URL ?? 'http://localhost:3000';
