import { z } from 'zod';

/** Spec §3 media item types: an image, a file, or a web page read for the model. */
export const MediaTypeSchema = z.enum(['image', 'file', 'html']);
export type MediaType = z.infer<typeof MediaTypeSchema>;

/** The longest address a page may be read from. */
export const MAX_PAGE_URL_CHARS = 2048;

/** POST /api/Chat/UploadMedia: read the web page at `url` for the model. */
export const UploadMediaBodySchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, 'urlRequired')
    .max(MAX_PAGE_URL_CHARS)
    .refine((value) => URL.canParse(value), 'urlInvalid'),
});
export type UploadMediaBody = z.infer<typeof UploadMediaBodySchema>;

/** Spec §3 Upload response: what the client shows as the attachment's chip. */
export const UploadResponseSchema = z.object({
  chatMediaId: z.string(),
  image: z.object({ imgSrcAll: z.string() }),
  pageFilePath: z.string(),
  iconStr: z.string(),
  pageUrl: z.string(),
  pageTitle: z.string(),
});
export type UploadResponse = z.infer<typeof UploadResponseSchema>;
