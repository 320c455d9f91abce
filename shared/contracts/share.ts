import { z } from 'zod';
import { ChatCitationSchema } from './chat.ts';
import { IdSchema } from './common.ts';

/** A share link's id: 22 URL-safe characters (128 random bits), so links cannot be guessed. */
export const ShareIdSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'shareNotFound');

/** POST /api/Chat/ShareSession: a public read-only link to a snapshot of one of the caller's chats. */
export const ShareSessionBodySchema = z.object({
  chatSessionId: IdSchema,
  /** Images attached to questions and drawn in answers are shown only when the owner says so. */
  includeImages: z.boolean().default(false),
});
export type ShareSessionBody = z.infer<typeof ShareSessionBodySchema>;

/** One of the caller's links (ShareSession's answer, GetShareList's items). `path` is /share/<shareId>. */
export const ShareItemSchema = z.object({
  shareId: z.string(),
  path: z.string(),
  chatSessionId: z.string(),
  sessionTitle: z.string(),
  /** The exchanges the snapshot holds: those finished when the link was made. */
  messageCount: z.number().int(),
  includeImages: z.boolean(),
  createTime: z.string(),
});
export type ShareItem = z.infer<typeof ShareItemSchema>;
export const ShareListSchema = z.array(ShareItemSchema);

export const RevokeShareBodySchema = z.object({ shareId: ShareIdSchema });
export const ShareQuerySchema = z.object({ shareId: ShareIdSchema });

/** One exchange as the public sees it: no ids, no user, no attachments but the images allowed. */
export const SharedMessageSchema = z.object({
  inputMessage: z.string(),
  outputMessage: z.string(),
  modelName: z.string().nullable(),
  citations: z.array(ChatCitationSchema),
  /** Signed links to the question's images and the answer's drawn images (includeImages only). */
  images: z.array(z.string()),
  createTime: z.string(),
});
export type SharedMessage = z.infer<typeof SharedMessageSchema>;

/** GET /api/Share/GetShare: the snapshot, for anyone with the link; gone when revoked or the chat is deleted. */
export const SharedChatSchema = z.object({
  title: z.string(),
  createTime: z.string(),
  messages: z.array(SharedMessageSchema),
});
export type SharedChat = z.infer<typeof SharedChatSchema>;

/** Most links one user keeps at once (revoked ones do not count). */
export const MAX_SHARES_PER_USER = 200;
