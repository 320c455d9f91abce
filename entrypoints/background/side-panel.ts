import { browser } from 'wxt/browser';

/** The command declared in wxt.config.ts (Alt+T). */
export const OPEN_SIDE_PANEL_COMMAND = 'open-side-panel';

/**
 * The toolbar action opens the popup (action.default_popup, from the popup/ entrypoint); the
 * keyboard command opens the side panel. Listeners are added synchronously in the worker's first
 * turn, as MV3 requires for events to wake the worker.
 */
export function wireSidePanel(): void {
  // Chrome keeps this behaviour across restarts, and older builds turned it on (the action then
  // opened the panel instead of the popup): setting it on every start repairs those profiles.
  // Firefox has no sidePanel API (its sidebar is sidebar_action, opened by its own command).
  browser.sidePanel?.setPanelBehavior({ openPanelOnActionClick: false }).catch((error: unknown) => {
    console.error('sidePanel.setPanelBehavior failed', error);
  });

  browser.commands.onCommand.addListener((command, tab) => {
    if (command !== OPEN_SIDE_PANEL_COMMAND) return;
    // sidePanel.open exists from Chrome 116 and must run inside the command's user gesture, so it
    // is called directly here and not after an await.
    if (typeof browser.sidePanel?.open !== 'function' || tab === undefined) return;
    browser.sidePanel
      .open({ windowId: tab.windowId })
      .catch((error: unknown) => console.error('sidePanel.open failed', error));
  });
}
