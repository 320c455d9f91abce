import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { ChatMessageItem } from '../../../shared/contracts/chat.ts';
import type { Paged } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import { MODEL_TYPE_IDS } from '../../../shared/contracts/model-type.ts';
import type { AddDrawBody, AddDrawRequest, AddDrawResult } from '../../../shared/contracts/plugin.ts';
import type { AppContext } from '../../context.ts';
import { chatMedia } from '../../db/schema/media.ts';
import { plugins } from '../../db/schema/plugins.ts';
import { AppError } from '../../core/errors.ts';
import { configuredImagesTarget, generateImage, ImagesError, imagesConfigured, type ImagesTarget } from '../../providers/images.ts';
import { OPENAI_DEFAULT_BASE_URL } from '../../providers/llm.ts';
import type { AuthUser } from '../accounts/auth.ts';
import { getCatalogue, hasType, vipLevelName } from '../catalogue/catalogue.ts';
import { signedMediaPath } from '../media/links.ts';
import { storageKeyOf } from '../media/upload.ts';
import { chargePoints, refundPoints } from '../points/ledger.ts';

/** Kept as the media item's title (what the image shows). */
const TITLE_MAX_CHARS = 200;
const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/**
 * Draws an image through `target` (default: the configured images endpoint) and keeps it as the
 * caller's media item (purpose 'draw', bytes in the file store). Answers its id and a signed link to it.
 */
export async function drawImage(ctx: AppContext, userId: string, body: AddDrawBody, signal?: AbortSignal, target?: ImagesTarget): Promise<AddDrawResult> {
  if (!target && !imagesConfigured(ctx.config)) throw new AppError(Codes.NotConfigured, 'imagesNotConfigured');
  let image;
  try {
    image = await generateImage(target ?? configuredImagesTarget(ctx.config), { prompt: body.prompt, size: body.size, signal });
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

/** Providers whose deployments speak the OpenAI images API. */
const IMAGES_PROVIDERS = new Set(['openai', 'openai-compatible']);

/**
 * The catalogue model that draws (aiModelId): online, an image-generation model (10463 otherwise),
 * within the caller's plan, with a deployment that has an images API. Its images target and cost.
 */
async function drawingModel(ctx: AppContext, user: AuthUser, aiModelId: string): Promise<{ target: ImagesTarget; cost: number }> {
  const entry = (await getCatalogue(ctx)).find((e) => e.model.aiModelId === aiModelId);
  if (!entry) throw new AppError(Codes.NotFound, 'modelNotFound');
  const { model } = entry;
  if (!hasType(model, MODEL_TYPE_IDS.image)) throw new AppError(Codes.ModelWrongType, 'modelNotImageGeneration', { model: model.name });
  if (model.minVipLevel > user.vipLevel) throw new AppError(Codes.PlanRequired, 'planRequired', { model: model.name, plan: vipLevelName(model.minVipLevel) });
  const deployment = entry.deployments.find((d) => IMAGES_PROVIDERS.has(d.provider));
  if (!deployment) throw new AppError(Codes.ModelMisconfigured, 'drawProviderUnsupported', { model: model.name });
  return {
    target: { baseUrl: deployment.baseUrl ?? OPENAI_DEFAULT_BASE_URL, apiKey: deployment.apiKey, model: deployment.upstreamModelId },
    cost: model.pointsCost,
  };
}

/**
 * POST /api/Chat/AddDraw: draws an image for the caller, with an image-generation model of the
 * catalogue (aiModelId: its pointsCost) or the configured images endpoint (the generate_image
 * plugin's points); charged atomically, given back when no image comes.
 */
export async function addDraw(ctx: AppContext, user: AuthUser, request: AddDrawRequest): Promise<AddDrawResult> {
  const { aiModelId, ...body } = request;
  const userId = user.id;
  let target: ImagesTarget | undefined;
  let cost: number;
  if (aiModelId) {
    ({ target, cost } = await drawingModel(ctx, user, aiModelId));
  } else {
    if (!imagesConfigured(ctx.config)) throw new AppError(Codes.NotConfigured, 'imagesNotConfigured');
    const [plugin] = await ctx.db.select({ pointsCost: plugins.pointsCost }).from(plugins).where(eq(plugins.toolName, 'generate_image'));
    cost = plugin?.pointsCost ?? 0;
  }
  const refId = randomUUID();
  if (!(await chargePoints(ctx.db, userId, cost, ctx.config.FREE_DAILY_POINTS, { kind: 'draw', key: `draw:${refId}`, refId }))) {
    throw new AppError(Codes.NotEnoughPoints, 'notEnoughPoints');
  }
  try {
    return await drawImage(ctx, userId, body, undefined, target);
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
