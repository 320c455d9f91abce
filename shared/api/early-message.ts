import type { SentMessage } from '../atoms/pending-action.ts';
import type { PreparedMessage } from '../contracts/selection-action.ts';

/**
 * A side panel opened by a selection tool sends the tool's message from its first script, a classic
 * script at the top of its page that runs before the app's modules have loaded
 * (entrypoints/sidepanel-early.ts), and hands the request on: the chat reads its answer as if it had
 * sent it (sse.ts, components/chat/pending-action.tsx). Nothing here imports zod or the app: that
 * script stays a few hundred bytes.
 */

/** What the first script sent: the action it claimed (its envelope is checked by the app) and the message. */
export interface SentEarly {
  id: string;
  envelope: unknown;
  sent: SentMessage;
}

/** The performance mark the side panel sets when its first script sends (read by the bench and the end-to-end test). */
export const SENT_EARLY_MARK = 'tandem:sent-early';

/** Sends a message the background prepared (shared/api/tool-message.ts prepareToolMessage). */
export function sendPreparedMessage(prepared: PreparedMessage): SentMessage {
  const controller = new AbortController();
  const response = fetch(prepared.url, { method: 'POST', headers: prepared.headers, body: JSON.stringify(prepared.body), signal: controller.signal });
  performance.mark(SENT_EARLY_MARK);
  // Its failure is the chat's to show when it takes the answer over; not an unhandled rejection meanwhile.
  response.catch(() => undefined);
  return { response, abort: (reason) => controller.abort(reason) };
}

/** The page's global the first script leaves its result under, for the app of the same page. */
const HANDOVER = '__tandemSentEarly';
type WithHandover = { [HANDOVER]?: Promise<SentEarly | null> };

/** The first script: what it sends (null: nothing), once it knows. */
export function offerSentEarly(found: Promise<SentEarly | null>): void {
  (window as WithHandover)[HANDOVER] = found;
}

/** The app: what the page's first script sent, if anything (null also where there is no such script). Taken once. */
export function takeSentEarly(): Promise<SentEarly | null> {
  const found = (window as WithHandover)[HANDOVER];
  delete (window as WithHandover)[HANDOVER];
  return (found ?? Promise.resolve(null)).catch(() => null);
}
