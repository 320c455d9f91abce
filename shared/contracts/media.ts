import { z } from 'zod';

/** Media item types: an image, a file, or a web page read for the model. */
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

/** The upload response: what the client shows as the attachment's chip. */
export const UploadResponseSchema = z.object({
  chatMediaId: z.string(),
  image: z.object({ imgSrcAll: z.string() }),
  pageFilePath: z.string(),
  iconStr: z.string(),
  pageUrl: z.string(),
  pageTitle: z.string(),
  /** A PDF: how many pages it has (its text carries a "--- Page N ---" line per page). Absent otherwise. */
  pageCount: z.number().int().nonnegative().optional(),
});
export type UploadResponse = z.infer<typeof UploadResponseSchema>;

/** Upload limits: the chat's drag/attach upload, and the generic uploader (AddChatFileToAi). */
export const MEDIA_LIMITS = {
  chat: { maxBytes: 10 * 1024 * 1024, maxCount: 5 },
  generic: { maxBytes: 5 * 1024 * 1024, maxCount: 1 },
} as const;

/** Image extensions a model with isImage accepts (case-insensitive, after the last dot). */
export const IMAGE_EXTENSIONS = ['png', 'jpeg', 'jpg', 'webp'] as const;

/** The extension of a file name: what follows its last dot, lower case; '' when there is none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The extensions a model accepts: the image extensions when it reads images, plus its fileTypes. */
export function acceptedExtensions(modelMap: { isImage: boolean; fileTypes: readonly string[] }): string[] {
  return [...new Set([...(modelMap.isImage ? IMAGE_EXTENSIONS : []), ...modelMap.fileTypes.map((t) => t.toLowerCase())])];
}

/**
 * Form fields of POST /api/Chat/AddChatMedia, UploadMediaByFile and AddChatFileToAi (multipart):
 * mediaType, pageTitle and pageUrl as text fields; the bytes as `imageFile` (an image) or `pageFile`
 * (a document, or an `html` page the extension read from the live tab, as Markdown or HTML).
 * `aiModelId` (optional) lets the server check the file against that model's accepted types.
 */
export const MediaFormFieldsSchema = z.object({
  mediaType: MediaTypeSchema,
  pageTitle: z.string().trim().max(500).default(''),
  pageUrl: z.string().trim().max(MAX_PAGE_URL_CHARS).default(''),
  aiModelId: z.string().trim().max(100).optional(),
});
export type MediaFormFields = z.infer<typeof MediaFormFieldsSchema>;

/**
 * Extensions of files the server reads text from for the model (besides images): PDF, Word (docx),
 * plain text, Markdown, CSV, JSON, web pages and source code. A model's fileTypes beyond these
 * cannot be uploaded, since nothing could be read from them.
 */
export const DOCUMENT_EXTENSIONS = [
  'pdf', 'docx', 'txt', 'md', 'markdown', 'csv', 'tsv', 'json', 'jsonl', 'html', 'htm', 'xml', 'yaml', 'yml', 'toml', 'ini',
  'log', 'js', 'mjs', 'cjs', 'jsx', 'ts', 'tsx', 'vue', 'svelte', 'py', 'ipynb', 'java', 'kt', 'scala', 'c', 'h', 'cc', 'cpp',
  'hpp', 'cs', 'go', 'rs', 'rb', 'php', 'swift', 'dart', 'lua', 'r', 'sql', 'sh', 'css', 'scss',
] as const;

/** Form field names of the uploaded bytes: an image, or a document (or an extracted page for `html`). */
export const MEDIA_FILE_FIELDS = ['imageFile', 'pageFile', 'file'] as const;

/**
 * GET /api/Chat/GetChatMedia: the stored bytes of a media item (image or file). Its owner may send
 * the bearer token; anyone else needs the signed link (`exp`, `sig`) the server handed out.
 */
export const MediaFileQuerySchema = z.object({
  chatMediaId: z.string().trim().min(1).max(100),
  /** Expiry of a signed link, Unix seconds. Checked with the signature: a bad one is "not found", like any other. */
  exp: z.string().trim().max(20).optional(),
  sig: z.string().trim().max(200).optional(),
  /** The share a link was handed out through (signed with it): the link works only while that share lives. */
  share: z.string().trim().max(100).optional(),
});
export type MediaFileQuery = z.infer<typeof MediaFileQuerySchema>;
