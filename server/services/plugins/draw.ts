import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { ChatMessageItem } from '../../../shared/contracts/chat.ts';
import type { Paged } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AddDrawBody, AddDrawResult } from '../../../shared/contracts/plugin.ts';
import type { AppContext } from '../../context.ts';
import { chatMedia } from '../../db/schema/media.ts';
import { plugins } from '../../db/schema/plugins.ts';
import { AppError } from '../../core/errors.ts';
import { generateImage, ImagesError, imagesConfigured } from '../../providers/images.ts';
import { signedMediaPath } from '../media/links.ts';
import { storageKeyOf } from '../media/upload.ts';
import { chargePoints, refundPoints } from '../points/ledger.ts';

/** Kept as the media item's title (what the image shows). */
const TITLE_MAX_CHARS = 200;
const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/**
 * Draws an image through the configured images endpoint and keeps it as the caller's media item
 * (purpose 'draw', bytes in the file store). Answers its id and a signed link to it.
 */
export async function drawImage(ctx: AppContext, userId: string, body: AddDrawBody, signal?: AbortSignal): Promise<AddDrawResult> {
  if (!imagesConfigured(ctx.config)) throw new AppError(Codes.NotConfigured, 'imagesNotConfigured');
  let image;
  try {
    image = await generateImage(ctx.config, { prompt: body.prompt, size: body.size, signal });
  } catch (err) {
    if (!(err instanceof ImagesError)) throw err;
    ctx.log.warn({ reason: err.message }, 'image generation failed');
    throw new AppError(Codes.ServiceFailed, 'imageFailed');
  }
  const id = randomUUID();
  const storageKey = storageKeyOf(id);
  await ctx.files.put(storageKey, image.bytes, image.mimeType);
  try {
    await ctx.db.insert(chatMedia).values({
      id,
      userId,
      mediaType: 'image',
      title: body.prompt.slice(0, TITLE_MAX_CHARS),
      fileName: `draw-${id.slice(0, 8)}.${EXTENSIONS[image.mimeType]}`,
      mimeType: image.mimeType,
      byteSize: image.bytes.length,
      storageKey,
      purpose: 'draw',
    });
  } catch (err) {
    await ctx.files.delete(storageKey).catch(() => {});
    throw err;
  }
  return { chatMediaId: id, imgSrcAll: signedMediaPath(ctx, id) };
}

/**
 * POST /api/Chat/AddDraw: draws an image for the caller, charged the generate_image plugin's points
 * (atomically, given back when no image comes).
 */
export async function addDraw(ctx: AppContext, userId: string, body: AddDrawBody): Promise<AddDrawResult> {
  if (!imagesConfigured(ctx.config)) throw new AppError(Codes.NotConfigured, 'imagesNotConfigured');
  const [plugin] = await ctx.db.select({ pointsCost: plugins.pointsCost }).from(plugins).where(eq(plugins.toolName, 'generate_image'));
  const cost = plugin?.pointsCost ?? 0;
  const refId = randomUUID();
  if (!(await chargePoints(ctx.db, userId, cost, ctx.config.FREE_DAILY_POINTS, { kind: 'draw', key: `draw:${refId}`, refId }))) {
    throw new AppError(Codes.NotEnoughPoints, 'notEnoughPoints');
  }
  try {
    return await drawImage(ctx, userId, body);
  } catch (err) {
    await refundPoints(ctx.db, userId, cost, { key: `refund:draw:${refId}`, refId });
    throw err;
  }
}

const MEDIA_LINK = /^\/api\/Chat\/GetChatMedia\?chatMediaId=([^&]+)&/;

/**
 * Messages as listed, with the links to images their tool calls drew signed again (by `sign`: a
 * shared chat's are tied to its share): the stored ones expire, the messages do not.
 */
export function withFreshImageLinks(
  ctx: AppContext,
  page: Paged<ChatMessageItem>,
  sign: (id: string) => string = (id) => signedMediaPath(ctx, id),
): Paged<ChatMessageItem> {
  const fresh = (link: string) => {
    const id = MEDIA_LINK.exec(link)?.[1];
    return id ? sign(decodeURIComponent(id)) : link;
  };
  return {
    ...page,
    list: page.list.map((m) =>
      m.toolCalls.some((c) => c.images.length) ? { ...m, toolCalls: m.toolCalls.map((c) => ({ ...c, images: c.images.map(fresh) })) } : m,
    ),
  };
}
