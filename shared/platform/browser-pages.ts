import { browser } from 'wxt/browser';

/** The browser's page where the extension's keyboard shortcuts are changed (Edge maps chrome:// to edge://). */
export const SHORTCUTS_PAGE = 'chrome://extensions/shortcuts';

/**
 * Opens the shortcuts page in a new tab. Pages cannot link to chrome:// addresses (the browser
 * refuses the navigation), but the extension may open one with tabs.create. Extension pages only:
 * on the web page there is no extension to set shortcuts for (false).
 */
export async function openShortcutsPage(): Promise<boolean> {
  if (typeof chrome === 'undefined' || !chrome.runtime?.id) return false;
  await browser.tabs.create({ url: SHORTCUTS_PAGE });
  return true;
}

/** The extension's keyboard shortcuts as the user set them (name → keys, '' when unset); empty outside the extension. */
export async function getShortcuts(): Promise<Record<string, string>> {
  if (typeof chrome === 'undefined' || !chrome.runtime?.id) return {};
  const commands = await browser.commands.getAll();
  return Object.fromEntries(commands.filter((c) => c.name).map((c) => [c.name!, c.shortcut ?? '']));
}
