import { createHmac, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { MediaFileQuery } from '../../../shared/contracts/media.ts';
import type { AppContext } from '../../context.ts';
import { chatMedia } from '../../db/schema/media.ts';
import { derivedKey } from '../system/secrets.ts';

/** Links to stored bytes: signed for <img src> and downloads, checked when served. */

/** How long a signed link works at least; it ends on a day boundary, so it stays the same all day (and caches). */
const MEDIA_LINK_DAYS = 7;
const DAY_SECONDS = 86_400;

const linkSignature = (ctx: AppContext, id: string, exp: number) =>
  createHmac('sha256', derivedKey(ctx, 'media-link')).update(`${id}\n${exp}`).digest('base64url');

/**
 * The address of a media item's bytes that works without a token (for <img src> and downloads)
 * until it expires: GET /api/Chat/GetChatMedia with an HMAC of the id and expiry under the server's
 * secret. Relative: the client prefixes its server (shared/utils/image-link.ts).
 */
export function signedMediaPath(ctx: AppContext, id: string, now = Date.now()): string {
  const exp = Math.ceil(now / 1000 / DAY_SECONDS + MEDIA_LINK_DAYS) * DAY_SECONDS;
  return `/api/Chat/GetChatMedia?chatMediaId=${encodeURIComponent(id)}&exp=${exp}&sig=${linkSignature(ctx, id, exp)}`;
}

function validSignature(ctx: AppContext, q: MediaFileQuery): boolean {
  const exp = Number(q.exp);
  if (!q.sig || !/^\d{1,12}$/.test(q.exp ?? '') || exp * 1000 < Date.now()) return false;
  const expected = Buffer.from(linkSignature(ctx, q.chatMediaId, exp));
  const given = Buffer.from(q.sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export type MediaFile = { bytes: Buffer; mimeType: string; fileName: string; isImage: boolean };

/**
 * The stored bytes of a media item, for its owner or a valid signed link; null for anyone else,
 * exactly as for an item that does not exist (or keeps no bytes, like a page).
 */
export async function readMediaFile(ctx: AppContext, userId: string | null, q: MediaFileQuery): Promise<MediaFile | null> {
  const signed = validSignature(ctx, q);
  if (!signed && !userId) return null;
  const [row] = await ctx.db
    .select({ userId: chatMedia.userId, mediaType: chatMedia.mediaType, fileName: chatMedia.fileName, mimeType: chatMedia.mimeType, storageKey: chatMedia.storageKey })
    .from(chatMedia)
    .where(eq(chatMedia.id, q.chatMediaId));
  if (!row || !row.storageKey || (!signed && row.userId !== userId)) return null;
  const bytes = await ctx.files.get(row.storageKey);
  if (!bytes) {
    ctx.log.warn({ chatMediaId: q.chatMediaId, storage: ctx.files.kind }, 'stored media bytes are missing');
    return null;
  }
  return { bytes, mimeType: row.mimeType || 'application/octet-stream', fileName: row.fileName, isImage: row.mediaType === 'image' };
}
