import type { FastifyInstance } from 'fastify';
import { GET_POSTER_BY_CODE_PATH, POSTER, PosterByCodeQuerySchema } from '../../shared/contracts/poster.ts';
import { BytesSchema } from '../../shared/contracts/responses.ts';
import { addRoute, RAW } from '../http/route.ts';
import { posterByCode } from '../services/poster/poster.ts';

/** The invite poster (docs/api.md#invite-poster): an account's poster, by its invite code. */
export function registerPosterRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: GET_POSTER_BY_CODE_PATH,
    // An invite code is made to be shared, and the poster is what it is shared with.
    auth: 'public',
    summary: `The invite poster of the account whose own invite code \`code\` is (any case, spaces around ignored): a ${POSTER.width}×${POSTER.height} PNG with the product's name and picture, the operator's words, the account's name and picture (or initial), and a QR code of its invite link, in \`lang\` (default the caller's language). Made on the first request and kept until something it shows changes (X-Poster-Cache: hit or miss). 10404 posterCodeUnknown for a code no active account has; 10429 posterBusy while the server makes as many posters as it takes at once.`,
    query: PosterByCodeQuerySchema,
    raw: { description: `The poster: a ${POSTER.width}×${POSTER.height} PNG.`, content: { 'image/png': BytesSchema } },
    // Making one costs a fraction of a second of CPU (cached ones do not, but a guessed code is never cached).
    rateLimit: { max: 30, timeWindow: 60_000 },
    handler: async ({ ctx, query, lang, reply }) => {
      const poster = await posterByCode(ctx, query.code, query.lang ?? lang);
      reply
        .header('content-type', 'image/png')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cross-origin-resource-policy', 'cross-origin')
        // The same address shows a new poster after a change (name, picture, the operator's words): revalidated after a minute.
        .header('cache-control', 'public, max-age=60')
        .header('x-poster-cache', poster.cached ? 'hit' : 'miss');
      reply.send(poster.png);
      return RAW;
    },
  });
}
