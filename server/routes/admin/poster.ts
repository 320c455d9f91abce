import type { FastifyInstance } from 'fastify';
import { AdminPosterPreviewQuerySchema, AdminPosterSettingsSchema, AdminSavePosterBodySchema, POSTER } from '../../../shared/contracts/poster.ts';
import { BytesSchema } from '../../../shared/contracts/responses.ts';
import { addRoute, RAW } from '../../http/route.ts';
import { readUploadForm } from '../../http/upload-form.ts';
import { adminGetPoster, adminPreviewPoster, adminSavePoster, adminSavePosterPicture } from '../../services/poster/poster.ts';

/** Operators set the invite poster's picture, words and colour (docs/api.md#invite-poster), and preview it. */
export function registerAdminPosterRoutes(app: FastifyInstance): void {
  const base = '/api/admin/Poster';
  const load = (ctx: Parameters<typeof adminGetPoster>[0]) => adminGetPoster(ctx);
  addRoute(app, {
    method: 'GET',
    url: `${base}/Get`,
    auth: 'admin',
    summary: "The poster's settings: headline and sub-text in each language (empty: the built-in words, listed in `defaults`), the accent colour, whether a picture is set.",
    data: AdminPosterSettingsSchema,
    handler: ({ ctx }) => adminGetPoster(ctx),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Save`,
    auth: 'admin',
    audit: { target: 'poster', id: () => 'poster', load },
    summary: `Saves the headline (at most ${POSTER.headlineMaxChars} characters) and sub-text (at most ${POSTER.subtextMaxChars}) in each language, and the accent colour (#rrggbb); removePicture: true removes the picture. Every kept poster is made again at its next request.`,
    body: AdminSavePosterBodySchema,
    data: AdminPosterSettingsSchema,
    handler: ({ ctx, body }) => adminSavePoster(ctx, body),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/SavePicture`,
    auth: 'admin',
    audit: { target: 'poster', id: () => 'poster', load },
    summary: `Sets the poster's picture: multipart/form-data with one file (as ${POSTER.pictureField}), PNG, JPEG or WebP, at most ${POSTER.pictureMaxBytes / 1024 / 1024} MB; cropped to 960×600 and kept as PNG. The picture it replaces is deleted.`,
    data: AdminPosterSettingsSchema,
    rateLimit: { max: 20, timeWindow: 60_000 },
    handler: async ({ ctx, req, reply }) => {
      const form = await readUploadForm(req, reply, POSTER.pictureMaxBytes);
      return adminSavePosterPicture(ctx, form.file);
    },
  });
  addRoute(app, {
    method: 'GET',
    url: `${base}/Preview`,
    auth: 'admin',
    summary:
      'The poster in `lang` with a sample account (name, code ABCD2345, no picture): `headline`, `subtext` and `accentColor`, when given, stand in for the saved ones (the console\'s live preview). Never kept.',
    query: AdminPosterPreviewQuerySchema,
    raw: { description: `The poster: a ${POSTER.width}×${POSTER.height} PNG.`, content: { 'image/png': BytesSchema } },
    rateLimit: { max: 60, timeWindow: 60_000 },
    handler: async ({ ctx, user, query, reply }) => {
      const png = await adminPreviewPoster(ctx, user.id, query);
      reply.header('content-type', 'image/png').header('x-content-type-options', 'nosniff').header('cache-control', 'no-store');
      reply.send(png);
      return RAW;
    },
  });
}
