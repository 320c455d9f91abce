/**
 * Installed-app mode: the web app opened from its installed icon (display mode standalone or
 * fullscreen, as the web app manifest asks) rather than in a browser tab. The root path never counts:
 * it is the chat, which looks the same either way; every other page (settings, plans, help) shows its
 * own back bar there, as the browser's back button and address bar are gone.
 */
export function isInstalledAppMode(pathname: string, display: { standalone: boolean; fullscreen: boolean }): boolean {
  return pathname !== '/' && pathname !== '' && (display.standalone || display.fullscreen);
}

export const STANDALONE_QUERY = '(display-mode: standalone)';
export const FULLSCREEN_QUERY = '(display-mode: fullscreen)';
