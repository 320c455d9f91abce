import type { FastifyReply } from 'fastify';
import type { Language } from '../../shared/contracts/common.ts';
import { Codes } from '../../shared/contracts/envelope.ts';
import { t } from '../core/i18n.ts';
import { RAW } from './route.ts';

/**
 * Sends a stored WebP picture (an avatar, a campaign's picture) for an <img> on any of our origins:
 * never sniffed or run, cached for good (its address changes with it); a real 404 with the 10404
 * envelope when it is gone.
 */
export function sendStoredImage(reply: FastifyReply, bytes: Buffer | Uint8Array | null, lang: Language): typeof RAW {
  if (!bytes) {
    reply.code(404).send({ Code: Codes.NotFound, Msg: t(lang, 'notFound'), Data: null });
    return RAW;
  }
  reply
    .header('content-type', 'image/webp')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    // The side panel and popup (another origin) show it in <img>.
    .header('cross-origin-resource-policy', 'cross-origin')
    .header('cache-control', 'public, max-age=31536000, immutable');
  reply.send(bytes);
  return RAW;
}
