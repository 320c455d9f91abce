import { startAuthSync } from '../../components/login/auth-sync.ts';
import { startPromptPluginRelay } from '../../components/app-shell/prompt-plugin-relay.ts';
import { watchPromptPluginUpdates } from '../../components/app-shell/prompt-plugin-sync.ts';
import { startApp } from '../../components/app-shell/start.ts';
import { preloadChatLayout } from '../../components/layout/chat-layout.tsx';
import { renderApp } from '../../components/layout/render-app.tsx';
import { startUnreadRelay } from '../../components/notifications/unread-relay.ts';
import { startLanguageSync } from '../../shared/i18n/language-sync.ts';
import { createPageBridge } from '../../shared/messaging/page-bridge.ts';
import { detectPlatform } from '../../shared/platform/platform.ts';
import { registerAppServiceWorker } from '../../shared/platform/service-worker.ts';

// The wide layout's history sidebar is a chunk of its own: fetched alongside start-up, not after it.
void preloadChatLayout(detectPlatform());
// The same page runs on the web and inside the extension; only there does it load the tab access.
const tabs = detectPlatform().isExtension ? (await import('../../shared/platform/extension.ts')).extensionTabs : undefined;
const started = await startApp({ tabs });
// Prompt and plugin lists follow changes made in another tab or page (promptPluginVersion).
watchPromptPluginUpdates(started.queryClient);
// On the web, the login and the language follow the extension's (and the other way round) through the bridge.
if (!started.platform.isExtension) {
  const bridge = createPageBridge();
  startAuthSync(started.store, bridge);
  startLanguageSync(bridge);
  // Installable, and opens offline to its shell (the server's /sw.js).
  registerAppServiceWorker();
  // The toolbar badge follows the unread count the page sees change.
  startUnreadRelay(bridge);
  // The extension's lists (side panel, selection toolbar) follow prompt changes made here (updatePromptPlugin).
  startPromptPluginRelay(bridge);
}
await renderApp(document.getElementById('root')!, started);
