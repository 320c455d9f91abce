import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { HEAD_IMG } from '../../../shared/contracts/account.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import { extensionOf, IMAGE_EXTENSIONS } from '../../../shared/contracts/media.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import { AppError } from '../../core/errors.ts';
import { ownerQueue } from '../../core/owner-queue.ts';
import { examineFile } from '../media/file-content.ts';
import type { UploadedFile } from '../media/upload.ts';

/**
 * The user's picture (docs/api.md#the-users-picture): an upload is judged by its content like a chat
 * image (PNG, JPEG or WebP, within the chat's size and pixel bounds), decoded, turned upright, cropped
 * to a centred square, scaled to HEAD_IMG.side and re-encoded as WebP, which keeps none of the
 * original's metadata (EXIF, GPS, XMP, ICC). It is stored under a new random id, which the user row
 * names; the picture it replaces is deleted. Served by id (GetHeadImg): the id is the secret, and
 * since it changes with every upload, an address can be cached for good.
 */

/** Beyond this an image is refused before it is decoded, as for chat images. */
const MAX_IMAGE_PIXELS = 100_000_000;

/** Pictures one at a time per user, and at most this many in work at once on an instance. */
const queued = ownerQueue(() => 8, 'headImgBusy');

/** Where a picture is kept in the file store. */
export const headImgKey = (id: string) => `avatars/${id}`;

/** The address of a picture, as UserInfo.headImg carries it (relative: the client prefixes its server). */
export const headImgPath = (id: string | null | undefined): string | null =>
  id ? `/api/Account/GetHeadImg?headImgId=${encodeURIComponent(id)}` : null;

/** The stored form: a centred square of HEAD_IMG.side pixels, WebP, no metadata. */
async function squarePicture(bytes: Uint8Array, fileName: string): Promise<Buffer> {
  try {
    return await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
      .rotate()
      .resize(HEAD_IMG.side, HEAD_IMG.side, { fit: 'cover', position: 'centre' })
      .webp({ quality: 85 })
      .toBuffer();
  } catch {
    throw new AppError(Codes.UploadRefused, 'fileUnreadable', { name: fileName });
  }
}

/** Points the row at `id` (null: none) under its lock; answers the id it named before. */
async function swapHeadImg(db: Db, userId: string, id: string | null): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ headImg: users.headImg }).from(users).where(eq(users.id, userId)).for('update');
    if (!row) throw new AppError(Codes.NotLoggedIn, 'notLoggedIn');
    await tx.update(users).set({ headImg: id, updatedAt: sql`now()` }).where(eq(users.id, userId));
    return row.headImg;
  });
}

/** Removes a picture's file once no row names it; a failure only leaves an orphan, which is logged. */
async function deleteFile(ctx: AppContext, id: string | null): Promise<void> {
  if (!id) return;
  await ctx.files.delete(headImgKey(id)).catch((err: unknown) => ctx.log.warn({ err, storage: ctx.files.kind }, 'removing a replaced picture failed'));
}

/** AddUserForHeadImg: keeps the picture and answers its id. Refusals are AppErrors in the user's language. */
export async function saveHeadImg(ctx: AppContext, userId: string, file: UploadedFile | null): Promise<string> {
  if (!file || file.bytes.length === 0) throw new AppError(Codes.BadRequest, 'uploadFileMissing');
  const fileName = (file.fileName.split(/[\\/]/).pop() ?? '').slice(-200) || 'picture';
  const ext = extensionOf(fileName);
  if (ext && !(IMAGE_EXTENSIONS as readonly string[]).includes(ext)) throw new AppError(Codes.UploadRefused, 'headImgTypeError', { name: fileName });
  const picture = await queued(userId, async () => {
    // The content decides, whatever the name says: really PNG, JPEG or WebP, readable, not too many pixels.
    await examineFile(file.bytes, fileName, true, userId);
    return squarePicture(file.bytes, fileName);
  });
  const id = randomUUID();
  try {
    await ctx.files.put(headImgKey(id), picture, 'image/webp');
  } catch (err) {
    ctx.log.error({ err, storage: ctx.files.kind }, 'storing a picture failed');
    throw new AppError(Codes.ServerError, 'uploadMediaFail');
  }
  let previous: string | null;
  try {
    previous = await swapHeadImg(ctx.db, userId, id);
  } catch (err) {
    await deleteFile(ctx, id);
    throw err;
  }
  await deleteFile(ctx, previous);
  return id;
}

/** DeleteUserHeadImg: the user has no picture any more (nothing to do without one). */
export async function deleteHeadImg(ctx: AppContext, userId: string): Promise<void> {
  await deleteFile(ctx, await swapHeadImg(ctx.db, userId, null));
}

/** GetHeadImg: a picture some account names now, as stored; null for any other id (removed, replaced, never). */
export async function readHeadImg(ctx: AppContext, id: string): Promise<Buffer | null> {
  const [row] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.headImg, id)).limit(1);
  if (!row) return null;
  const bytes = await ctx.files.get(headImgKey(id));
  if (!bytes) ctx.log.warn({ headImgId: id, storage: ctx.files.kind }, 'a stored picture is missing');
  return bytes;
}
