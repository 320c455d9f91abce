import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { CAMPAIGN_IMAGE, CAMPAIGN_IMAGE_PATH } from '../../../shared/contracts/campaigns.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { examineFile } from '../media/file-content.ts';
import type { UploadedFile } from '../media/upload.ts';

/**
 * Campaign pictures (docs/api.md#campaigns): an operator's upload is judged by its content as a chat
 * image (PNG, JPEG or WebP), turned upright, scaled to at most CAMPAIGN_IMAGE.width wide and stored as
 * WebP without metadata, under a new random id; served by that id (the id is the address's secret
 * and never changes, so the picture is cached for good).
 */

const MAX_IMAGE_PIXELS = 100_000_000;

export const campaignImageKey = (id: string) => `campaigns/${id}`;

export async function saveCampaignImage(ctx: AppContext, adminId: string, file: UploadedFile | null): Promise<{ imageId: string; imageUrl: string }> {
  if (!file || file.bytes.length === 0) throw new AppError(Codes.BadRequest, 'uploadFileMissing');
  const fileName = (file.fileName.split(/[\\/]/).pop() ?? '').slice(-200) || 'picture';
  await examineFile(file.bytes, fileName, true, adminId);
  let picture: Buffer;
  try {
    picture = await sharp(file.bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: CAMPAIGN_IMAGE.width, withoutEnlargement: true })
      .webp({ quality: 85 })
      .toBuffer();
  } catch {
    throw new AppError(Codes.UploadRefused, 'fileUnreadable', { name: fileName });
  }
  const imageId = randomUUID();
  try {
    await ctx.files.put(campaignImageKey(imageId), picture, 'image/webp');
  } catch (err) {
    ctx.log.error({ err, storage: ctx.files.kind }, 'storing a campaign picture failed');
    throw new AppError(Codes.ServerError, 'uploadMediaFail');
  }
  return { imageId, imageUrl: `${CAMPAIGN_IMAGE_PATH}${imageId}` };
}

/** GetImage: the stored picture, or null for an id never stored. */
export async function readCampaignImage(ctx: AppContext, imageId: string): Promise<Buffer | null> {
  return ctx.files.get(campaignImageKey(imageId));
}
