import { watchPromptPluginUpdates } from '../../components/app-shell/prompt-plugin-sync.ts';
import { startApp } from '../../components/app-shell/start.ts';
import { renderApp } from '../../components/layout/render-app.tsx';
import { pendingChatActionAtom } from '../../shared/atoms/pending-action.ts';
import type { PendingActionEnvelope } from '../../shared/contracts/selection-action.ts';
import { watchPendingActions } from '../../shared/messaging/pending-action.ts';
import { extensionTabs } from '../../shared/platform/extension.ts';

// The page's selection toolbar, context menus and shortcut leave actions for this panel (opened for
// them, or open already): each runs once, in a new chat (components/chat/pending-action.tsx). The
// one that opened the panel is claimed beside start-up, so the first screen already runs it.
const early: PendingActionEnvelope[] = [];
let onAction = (envelope: PendingActionEnvelope) => void early.push(envelope);
const pending = watchPendingActions((_action, envelope) => onAction(envelope));

// The side panel sits beside a tab: it reads, follows and captures it.
const [started] = await Promise.all([startApp({ tabs: extensionTabs }), pending.ready]);
onAction = (envelope) => {
  started.store.set(pendingChatActionAtom, envelope);
  if (window.location.hash !== '#/' && window.location.hash !== '') window.location.hash = '#/';
};
early.forEach(onAction);
// The web app announces prompt and plugin changes (updatePromptPlugin); the panel refetches them.
watchPromptPluginUpdates(started.queryClient);
await renderApp(document.getElementById('root')!, started);
