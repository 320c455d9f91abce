import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { ShareItem, SharedChat, ShareSessionBody } from '../../../shared/contracts/share.ts';
import { MAX_SHARES_PER_USER } from '../../../shared/contracts/share.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { chatMessages, chatSessions } from '../../db/schema/chat.ts';
import { chatShares } from '../../db/schema/shares.ts';
import { AppError } from '../../core/errors.ts';
import { messageItems } from './sessions.ts';
import { leafOf, pathCte, pathPage } from './versions.ts';
import { withFreshImageLinks } from '../plugins/draw.ts';
import { sharedMediaPath } from '../media/links.ts';
import { lockUser } from '../accounts/user-lock.ts';

/** The longest chat a link shows: its first exchanges up to the snapshot, at most this many. */
const MAX_SHARED_MESSAGES = 1000;

const shareNotFound = () => new AppError(Codes.NotFound, 'shareNotFound');
const pathOf = (id: string) => `/share/${id}`;

async function shareItems(db: Db, userId: string, shareId?: string): Promise<ShareItem[]> {
  const rows = await db
    .select({
      share: chatShares,
      title: chatSessions.title,
      // The snapshot: the finished exchanges of the branch the chat showed, up to its newest finished one when the link was made.
      messageCount: sql<number>`(with recursive ${pathCte(sql`${chatShares.sessionId}`, sql`${chatShares.uptoMessageId}`)}
        select count(*)::int from path where path.finished)`,
    })
    .from(chatShares)
    .innerJoin(chatSessions, eq(chatSessions.id, chatShares.sessionId))
    .where(and(eq(chatShares.userId, userId), isNull(chatShares.revokedAt), shareId ? eq(chatShares.id, shareId) : undefined))
    .orderBy(desc(chatShares.createdAt), desc(chatShares.id));
  return rows.map(({ share, title, messageCount }) => ({
    shareId: share.id,
    path: pathOf(share.id),
    chatSessionId: share.sessionId,
    sessionTitle: title,
    messageCount: Number(messageCount),
    includeImages: share.includeImages,
    createTime: share.createdAt.toISOString(),
  }));
}

/**
 * A new link to one of the caller's chats, its snapshot ending at the newest finished exchange.
 * Another chat's id, or one with nothing finished yet, is refused.
 */
export async function createShare(db: Db, userId: string, body: ShareSessionBody): Promise<ShareItem> {
  // The newest finished exchange of the branch the chat shows (answer versions: chat/versions.ts).
  const shown = await pathPage(db, { sessionId: body.chatSessionId, owner: userId, from: leafOf(sql`s`), newestFirst: true, offset: 0, limit: 1, finishedOnly: true });
  if (!shown) throw new AppError(Codes.NotFound, 'notFound');
  const [last] = shown.entries.length
    ? await db.select({ id: chatMessages.id, createdAt: chatMessages.createdAt }).from(chatMessages).where(eq(chatMessages.id, shown.entries[0]!.id))
    : [];
  if (!last) throw new AppError(Codes.BadRequest, 'nothingToShare');
  const id = randomBytes(16).toString('base64url');
  // Counted and written under the user's row lock: concurrent requests cannot pass the limit together.
  await db.transaction(async (tx) => {
    await lockUser(tx, userId);
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(chatShares).where(and(eq(chatShares.userId, userId), isNull(chatShares.revokedAt)));
    if (n >= MAX_SHARES_PER_USER) throw new AppError(Codes.BadRequest, 'shareLimit', { max: MAX_SHARES_PER_USER });
    await tx.insert(chatShares).values({
      id,
      userId,
      sessionId: body.chatSessionId,
      uptoCreatedAt: last.createdAt,
      uptoMessageId: last.id,
      includeImages: body.includeImages,
    });
  });
  return (await shareItems(db, userId, id))[0]!;
}

/** The caller's live links, newest first. */
export const listShares = (db: Db, userId: string) => shareItems(db, userId);

/**
 * Takes every live link of an account down (Close): a closed account's chats are no longer public,
 * and Reopen does not bring them back (the owner shares again if they want).
 */
export async function revokeAllShares(db: Db, userId: string): Promise<void> {
  await db.update(chatShares).set({ revokedAt: sql`now()` }).where(and(eq(chatShares.userId, userId), isNull(chatShares.revokedAt)));
}

/** Revokes one of the caller's links: from then on it answers "not found", like a link never made. */
export async function revokeShare(db: Db, userId: string, shareId: string): Promise<void> {
  const revoked = await db
    .update(chatShares)
    .set({ revokedAt: new Date() })
    .where(and(eq(chatShares.id, shareId), eq(chatShares.userId, userId), isNull(chatShares.revokedAt)))
    .returning({ id: chatShares.id });
  if (revoked.length === 0) throw shareNotFound();
}

/** Whether a link is live (the web page answers HTTP 404 for one that is not). */
export async function shareExists(db: Db, shareId: string): Promise<boolean> {
  const [row] = await db.select({ id: chatShares.id }).from(chatShares).where(and(eq(chatShares.id, shareId), isNull(chatShares.revokedAt)));
  return !!row;
}

/**
 * What anyone with the link sees: the chat's title and the snapshot's exchanges, oldest first.
 * Nothing names the owner; attachments are left out, but for images when the owner included them.
 */
export async function readShare(ctx: AppContext, shareId: string): Promise<SharedChat> {
  const [share] = await ctx.db
    .select({ share: chatShares, title: chatSessions.title })
    .from(chatShares)
    .innerJoin(chatSessions, eq(chatSessions.id, chatShares.sessionId))
    .where(and(eq(chatShares.id, shareId), isNull(chatShares.revokedAt)));
  if (!share) throw shareNotFound();
  const { userId, sessionId, includeImages } = share.share;
  // Image links tied to this share: revoking it (or closing the account) ends them too (readMediaFile).
  const sign = (id: string) => sharedMediaPath(ctx, shareId, id);
  // The snapshot: the finished exchanges of the branch up to the one the link ends at, oldest first.
  const path = await pathPage(ctx.db, {
    sessionId,
    owner: userId,
    from: sql`${share.share.uptoMessageId}::text`,
    newestFirst: false,
    offset: 0,
    limit: MAX_SHARED_MESSAGES,
    finishedOnly: true,
  });
  const page = withFreshImageLinks(ctx, { list: await messageItems(ctx.db, userId, path?.entries ?? [], sign), total: path?.total ?? 0 }, sign);
  const messages = page.list;
  return {
    title: share.title,
    createTime: share.share.createdAt.toISOString(),
    messages: messages.map((m) => ({
      inputMessage: m.inputMessage,
      outputMessage: m.outputMessage,
      modelName: m.modelName,
      citations: m.citations,
      images: includeImages
        ? [...m.chatMedias.filter((media) => media.mediaType === 'image' && media.url).map((media) => media.url), ...m.toolCalls.flatMap((c) => c.images)]
        : [],
      createTime: m.createTime,
    })),
  };
}
