import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { offerSentEarly, sendPreparedMessage } from '../shared/api/early-message.ts';
import { claimPendingAction, waitingMessage } from '../shared/messaging/pending-action.ts';

/**
 * The side panel's first script: a classic script at the top of its page (sidepanel/index.html), so
 * it runs while the app's modules are still loading. When the click that opened the panel left a
 * tool's message ready (the background made it from the kept model list and settings), it is sent
 * here, about as soon as the panel exists instead of after the app's first render, then claimed;
 * the app's chat takes the request over and streams its answer (sidepanel/main.tsx). Anything else
 * is left to the app, as before. WXT builds it to /sidepanel-early.js without zod or React.
 */
export default defineUnlistedScript(() => {
  offerSentEarly(
    waitingMessage().then(async (waiting) => {
      if (!waiting) return null;
      const sent = sendPreparedMessage(waiting.send);
      // Sent before it is claimed: the only other reader in this window is this page's app, which reads after this.
      await claimPendingAction(waiting.id).catch((error: unknown) => console.warn('pending action: claiming failed', error));
      return { id: waiting.id, envelope: waiting.envelope, sent };
    }),
  );
});
