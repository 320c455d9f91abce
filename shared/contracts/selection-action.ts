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

/**
 * A tool's AddMessage request, made ready by the background from what is kept in extension storage
 * (the login, the last model list, the model picked, web search, the language): a side panel opened
 * for the action sends it from its first script, before its app has loaded
 * (entrypoints/sidepanel-early.ts). It carries the login's token, so it lives only where the
 * envelope does: storage.session, in memory and out of content scripts' reach.
 */
export const PreparedMessageSchema = z.object({
  url: z.string().min(1).max(2000),
  headers: z.record(z.string(), z.string()),
  /** The AddMessage body (shared/contracts/chat.ts), as the chat would send it; the server checks it. */
  body: z.record(z.string(), z.unknown()),
});
export type PreparedMessage = z.infer<typeof PreparedMessageSchema>;

export const PendingActionEnvelopeSchema = z.object({
  id: z.string().min(1).max(100),
  /** The window whose side panel runs it. */
  windowId: z.number().int(),
  createdAt: z.number(),
  action: PendingActionSchema,
  /** A tool's message ready to send (absent when something it needs is not kept: the panel then sends as usual). */
  send: PreparedMessageSchema.optional(),
});
export type PendingActionEnvelope = z.infer<typeof PendingActionEnvelopeSchema>;
