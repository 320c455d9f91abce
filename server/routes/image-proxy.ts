import type { FastifyInstance } from 'fastify';
import { PROXY_IMAGE_PATH, ProxyImageQuerySchema } from '../../shared/contracts/image-proxy.ts';
import { BytesSchema } from '../../shared/contracts/responses.ts';
import { addRoute, RAW } from '../http/route.ts';
import { fetchProxiedImage, PROXIED_IMAGE_TYPES } from '../services/media/image-proxy.ts';

/** How long the browser may keep a proxied image: short, as the remote image may change. */
const PROXY_CACHE_SECONDS = 600;

export function registerImageProxyRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: PROXY_IMAGE_PATH,
    // Signed-in users only, so the proxy is nobody's open relay (docs/security.md).
    auth: 'user',
    summary:
      'The image at `url` (another host, named in an answer), fetched by the server through the page reader\'s address guard: public addresses only, raster images only (judged by their bytes, SVG refused), at most 5 MB. Refusals are 10422 with the reason.',
    query: ProxyImageQuerySchema,
    raw: {
      description: 'The image’s bytes, with the type its bytes show (raster images only).',
      content: Object.fromEntries([...PROXIED_IMAGE_TYPES].map((type) => [type, BytesSchema])),
    },
    // Each call makes the server fetch an address: bounded per address like UploadMedia.
    rateLimit: { max: 120, timeWindow: 60_000 },
    handler: async ({ ctx, query, reply }) => {
      const image = await fetchProxiedImage(ctx, query.url);
      reply
        .header('content-type', image.mimeType)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline; filename="image"')
        // Opened as a page of its own, it is inert.
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', `private, max-age=${PROXY_CACHE_SECONDS}`);
      reply.send(image.bytes);
      return RAW;
    },
  });
}
