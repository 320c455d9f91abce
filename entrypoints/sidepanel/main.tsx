import { watchPromptPluginUpdates } from '../../components/app-shell/prompt-plugin-sync.ts';
import { startApp } from '../../components/app-shell/start.ts';
import { renderApp } from '../../components/layout/render-app.tsx';
import { pendingChatActionAtom } from '../../shared/atoms/pending-action.ts';
import { watchPendingActions } from '../../shared/messaging/pending-action.ts';
import { extensionTabs } from '../../shared/platform/extension.ts';

// The side panel sits beside a tab: it reads, follows and captures it.
const started = await startApp({ tabs: extensionTabs });
// The web app announces prompt and plugin changes (updatePromptPlugin); the panel refetches them.
watchPromptPluginUpdates(started.queryClient);
// The page's selection toolbar, context menus and shortcut leave actions for this panel (opened for
// them, or open already): each runs once, in a new chat (components/chat/pending-action.tsx).
watchPendingActions((_action, envelope) => {
  started.store.set(pendingChatActionAtom, envelope);
  if (window.location.hash !== '#/' && window.location.hash !== '') window.location.hash = '#/';
});
await renderApp(document.getElementById('root')!, started);
