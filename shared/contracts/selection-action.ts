import { z } from 'zod';
import { ChatSelectionSchema } from './quick-function.ts';

/**
 * What the page asked the side panel to do (the selection toolbar, a context menu item, the
 * send-selection shortcut): the background opens the panel first (inside the user's gesture) and
 * leaves one of these in `chrome.storage.session`; the panel of that window takes it (removes it),
 * so it runs once, whether the panel was open already or opened for it
 * (shared/messaging/pending-action.ts, components/chat/pending-action.ts).
 */
export const PENDING_ACTION_KEY = 'tandem.pendingAction';
/** Older than this, a left-over action is dropped rather than run (a panel opened much later). */
export const PENDING_ACTION_TTL_MS = 60_000;

const TabSchema = z.object({
  id: z.number().int(),
  windowId: z.number().int().optional(),
  url: z.string().max(100_000),
  title: z.string().max(1000),
  favIconUrl: z.string().max(100_000).optional(),
});

export const PendingActionSchema = z.discriminatedUnion('kind', [
  /** Run a quick function on the selection: the answer starts at once. */
  z.object({
    kind: z.literal('tool'),
    quickFunctionId: z.string().min(1).max(64),
    name: z.string().max(60),
    icon: z.string().max(32).default(''),
    selection: ChatSelectionSchema,
  }),
  /** Attach the selection to the composer; the user types the question. */
  z.object({ kind: z.literal('ask'), selection: ChatSelectionSchema }),
  /** Read the tab's page into the composer ("Chat about this page") and, for summarize, ask for a summary. */
  z.object({ kind: z.literal('page'), mode: z.enum(['summarize', 'chat']), tab: TabSchema }),
  /** Attach an image of the page (for a model that sees images). */
  z.object({ kind: z.literal('image'), srcUrl: z.string().min(1).max(100_000), pageUrl: z.string().max(100_000) }),
]);
export type PendingAction = z.infer<typeof PendingActionSchema>;

export const PendingActionEnvelopeSchema = z.object({
  id: z.string().min(1).max(100),
  /** The window whose side panel runs it. */
  windowId: z.number().int(),
  createdAt: z.number(),
  action: PendingActionSchema,
});
export type PendingActionEnvelope = z.infer<typeof PendingActionEnvelopeSchema>;
