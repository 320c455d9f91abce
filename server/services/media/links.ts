import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { MediaFileQuery } from '../../../shared/contracts/media.ts';
import type { AppContext } from '../../context.ts';
import { chatMedia } from '../../db/schema/media.ts';
import { chatShares } from '../../db/schema/shares.ts';
import { users } from '../../db/schema/users.ts';
import { derivedKey } from '../system/secrets.ts';

/** Links to stored bytes: signed for <img src> and downloads, checked when served. */

/** How long a signed link works at least; it ends on a day boundary, so it stays the same all day (and caches). */
const MEDIA_LINK_DAYS = 7;
const DAY_SECONDS = 86_400;

/** A link handed out through a share signs the share's id too: it cannot be moved to another share or made plain. */
const linkSignature = (ctx: AppContext, id: string, exp: number, shareId?: string) =>
  createHmac('sha256', derivedKey(ctx, 'media-link'))
    .update(shareId === undefined ? `${id}\n${exp}` : `${id}\n${exp}\nshare:${shareId}`)
    .digest('base64url');

const expiryOf = (now: number) => Math.ceil(now / 1000 / DAY_SECONDS + MEDIA_LINK_DAYS) * DAY_SECONDS;

/**
 * The address of a media item's bytes that works without a token (for <img src> and downloads)
 * until it expires: GET /api/Chat/GetChatMedia with an HMAC of the id and expiry under the server's
 * secret. Relative: the client prefixes its server (shared/utils/image-link.ts).
 */
export function signedMediaPath(ctx: AppContext, id: string, now = Date.now()): string {
  const exp = expiryOf(now);
  return `/api/Chat/GetChatMedia?chatMediaId=${encodeURIComponent(id)}&exp=${exp}&sig=${linkSignature(ctx, id, exp)}`;
}

/**
 * The address of an image of a shared chat, for those who read the share: like signedMediaPath, but it
 * works only while the share is live (not revoked, its owner's account not closed) and only for media
 * of that chat (checked in readMediaFile). The `share` parameter is kept out of the log (log-safety.ts).
 */
export function sharedMediaPath(ctx: AppContext, shareId: string, id: string, now = Date.now()): string {
  const exp = expiryOf(now);
  const sig = linkSignature(ctx, id, exp, shareId);
  return `/api/Chat/GetChatMedia?chatMediaId=${encodeURIComponent(id)}&share=${encodeURIComponent(shareId)}&exp=${exp}&sig=${sig}`;
}

function validSignature(ctx: AppContext, q: MediaFileQuery): boolean {
  const exp = Number(q.exp);
  if (!q.sig || !/^\d{1,12}$/.test(q.exp ?? '') || exp * 1000 < Date.now()) return false;
  const expected = Buffer.from(linkSignature(ctx, q.chatMediaId, exp, q.share));
  const given = Buffer.from(q.sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const mediaColumns = {
  userId: chatMedia.userId,
  mediaType: chatMedia.mediaType,
  fileName: chatMedia.fileName,
  mimeType: chatMedia.mimeType,
  storageKey: chatMedia.storageKey,
};

/**
 * For a share-scoped link: the media item's stored bytes' row when the share is live (not revoked, its
 * owner active, images included) and the item is the owner's and in the shared snapshot — attached to
 * one of its messages or drawn by one of its tool calls. One query, on the share's primary key and the
 * messages' session index.
 */
async function sharedMediaRow(ctx: AppContext, shareId: string, mediaId: string) {
  const drawnLink = `%chatMediaId=${encodeURIComponent(mediaId).replace(/[\\%_]/g, '\\$&')}&%`;
  const [row] = await ctx.db
    .select(mediaColumns)
    .from(chatShares)
    .innerJoin(users, eq(users.id, chatShares.userId))
    .innerJoin(chatMedia, and(eq(chatMedia.id, mediaId), eq(chatMedia.userId, chatShares.userId)))
    .where(
      and(
        eq(chatShares.id, shareId),
        isNull(chatShares.revokedAt),
        eq(chatShares.includeImages, true),
        eq(users.status, 'active'),
        sql`exists (select 1 from chat_messages m where m.session_id = ${chatShares.sessionId}
          and (m.created_at, m.id) <= (${chatShares.uptoCreatedAt}, ${chatShares.uptoMessageId}) and m.finish_reason is not null
          and (m.media_ids @> jsonb_build_array(${mediaId}::text) or m.tool_calls::text like ${drawnLink}))`,
      ),
    );
  return row;
}

export type MediaFile = { bytes: Buffer; mimeType: string; fileName: string; isImage: boolean };

/**
 * The stored bytes of a media item, for its owner or a valid signed link (a share's link only while
 * its share lives: sharedMediaRow); null for anyone else,
 * exactly as for an item that does not exist (or keeps no bytes, like a page).
 */
export async function readMediaFile(ctx: AppContext, userId: string | null, q: MediaFileQuery): Promise<MediaFile | null> {
  const signed = validSignature(ctx, q);
  if (!signed && !userId) return null;
  // A share's link opens only while the share lives, whoever presents it (even the owner, signed in).
  const row =
    signed && q.share !== undefined
      ? await sharedMediaRow(ctx, q.share, q.chatMediaId)
      : (await ctx.db.select(mediaColumns).from(chatMedia).where(eq(chatMedia.id, q.chatMediaId)))[0];
  if (!row || !row.storageKey || (!signed && row.userId !== userId)) return null;
  const bytes = await ctx.files.get(row.storageKey);
  if (!bytes) {
    ctx.log.warn({ chatMediaId: q.chatMediaId, storage: ctx.files.kind }, 'stored media bytes are missing');
    return null;
  }
  return { bytes, mimeType: row.mimeType || 'application/octet-stream', fileName: row.fileName, isImage: row.mediaType === 'image' };
}
