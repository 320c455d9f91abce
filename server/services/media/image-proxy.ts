import { fileTypeFromBuffer } from 'file-type';
import { Codes } from '../../../shared/contracts/envelope.ts';
import { PROXIED_IMAGE_MAX_BYTES } from '../../../shared/contracts/image-proxy.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import type { MessageKey } from '../../core/i18n.ts';
import { fetchPublicResource, ReaderError, type ReaderErrorReason } from '../reader/safe-fetch.ts';

/**
 * The server side of click-to-load answer images (docs/security.md): a remote image fetched
 * through the page reader's SSRF guard (public addresses only, every redirect vetted, bounded in
 * size and time), passed on only when its bytes are a raster image a browser shows without running
 * anything. SVG is refused: it is a document that can carry script and links.
 */

/** What the proxy serves, judged by the bytes (file-type's names). */
export const PROXIED_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'image/x-icon']);

/**
 * Declared types worth reading: any image but SVG, and the generic or missing types some hosts
 * send for images. What is finally served is the sniffed type, never the declared one.
 */
function worthReading(contentType: string): boolean {
  if (contentType === 'image/svg+xml') return false;
  return contentType.startsWith('image/') || contentType === '' || contentType === 'application/octet-stream' || contentType === 'binary/octet-stream';
}

const PROXY_TIMEOUT_MS = 10_000;

const REFUSALS: Record<ReaderErrorReason, MessageKey> = {
  badUrl: 'remoteImageBlocked',
  blockedAddress: 'remoteImageBlocked',
  blockedPort: 'remoteImageBlocked',
  unsupportedContent: 'remoteImageUnsupported',
  tooLarge: 'remoteImageTooLarge',
  tooManyRedirects: 'remoteImageUnreachable',
  timeout: 'remoteImageUnreachable',
  httpStatus: 'remoteImageUnreachable',
  fetchFailed: 'remoteImageUnreachable',
};

export type ProxiedImage = { bytes: Buffer; mimeType: string };

/** Fetches the image at `url` for a user; a refusal is an AppError (10422) saying why, in their language. */
export async function fetchProxiedImage(ctx: AppContext, url: string): Promise<ProxiedImage> {
  let resource;
  try {
    resource = await fetchPublicResource(url, {
      allowList: ctx.config.READER_ALLOWLIST,
      maxBytes: PROXIED_IMAGE_MAX_BYTES,
      timeoutMs: PROXY_TIMEOUT_MS,
      accept: worthReading,
    });
  } catch (error) {
    if (!(error instanceof ReaderError)) throw error;
    throw new AppError(Codes.UploadRefused, REFUSALS[error.reason], { max: PROXIED_IMAGE_MAX_BYTES / 1024 / 1024 });
  }
  const sniffed = resource.body.length > 0 ? await fileTypeFromBuffer(resource.body) : undefined;
  if (!sniffed || !PROXIED_IMAGE_TYPES.has(sniffed.mime)) throw new AppError(Codes.UploadRefused, 'remoteImageUnsupported');
  return { bytes: resource.body, mimeType: sniffed.mime };
}
