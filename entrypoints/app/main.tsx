import { startAuthSync } from '../../components/login/auth-sync.ts';
import { startApp } from '../../components/app-shell/start.ts';
import { preloadChatLayout } from '../../components/layout/chat-layout.tsx';
import { renderApp } from '../../components/layout/render-app.tsx';
import { startUnreadRelay } from '../../components/notifications/unread-relay.ts';
import { startLanguageSync } from '../../shared/i18n/language-sync.ts';
import { createPageBridge } from '../../shared/messaging/page-bridge.ts';
import { detectPlatform } from '../../shared/platform/platform.ts';

// The wide layout's history sidebar is a chunk of its own: fetched alongside start-up, not after it.
void preloadChatLayout(detectPlatform());
// The same page runs on the web and inside the extension; only there does it load the tab access.
const tabs = detectPlatform().isExtension ? (await import('../../shared/platform/extension.ts')).extensionTabs : undefined;
const started = await startApp({ tabs });
// On the web, the login and the language follow the extension's (and the other way round) through the bridge.
if (!started.platform.isExtension) {
  const bridge = createPageBridge();
  startAuthSync(started.store, bridge);
  startLanguageSync(bridge);
  // The toolbar badge follows the unread count the page sees change.
  startUnreadRelay(bridge);
}
await renderApp(document.getElementById('root')!, started);
