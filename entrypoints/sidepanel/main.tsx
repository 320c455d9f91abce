import { watchPromptPluginUpdates } from '../../components/app-shell/prompt-plugin-sync.ts';
import { startApp } from '../../components/app-shell/start.ts';
import { renderApp } from '../../components/layout/render-app.tsx';
import { takeSentEarly } from '../../shared/api/early-message.ts';
import { pendingChatActionAtom, type PendingChatAction } from '../../shared/atoms/pending-action.ts';
import { PendingActionEnvelopeSchema } from '../../shared/contracts/selection-action.ts';
import { watchPendingActions } from '../../shared/messaging/pending-action.ts';
import { extensionTabs } from '../../shared/platform/extension.ts';

// The page's selection toolbar, context menus and shortcut leave actions for this panel (opened for
// them, or open already): each runs once, in a new chat (components/chat/pending-action.tsx). The
// one that opened the panel is claimed beside start-up, so the first screen already runs it; a
// tool's message may have left already, from the page's first script (entrypoints/sidepanel-early.ts):
// the chat then shows that request's answer, and the waiting action is read only after it.
const sentEarly = takeSentEarly();
const early: PendingChatAction[] = [];
let onAction = (action: PendingChatAction) => void early.push(action);
const pending = watchPendingActions((_action, envelope) => onAction(envelope), { claimedBefore: sentEarly.then((found) => found?.id ?? null) });

// The side panel sits beside a tab: it reads, follows and captures it.
const [started, sent] = await Promise.all([startApp({ tabs: extensionTabs }), sentEarly, pending.ready]);
onAction = (action) => {
  // A newer action replaces one the chat has not run yet; a message sent for that one is cancelled.
  started.store.get(pendingChatActionAtom)?.sent?.abort();
  started.store.set(pendingChatActionAtom, action);
  if (window.location.hash !== '#/' && window.location.hash !== '') window.location.hash = '#/';
};
if (sent) {
  const envelope = PendingActionEnvelopeSchema.safeParse(sent.envelope);
  if (envelope.success) onAction({ ...envelope.data, send: undefined, sent: sent.sent });
  else sent.sent.abort();
}
early.forEach(onAction);
// The web app announces prompt and plugin changes (updatePromptPlugin); the panel refetches them.
watchPromptPluginUpdates(started.queryClient);
await renderApp(document.getElementById('root')!, started);
