import { z } from 'zod';
import { LanguageSchema } from './common.ts';

/**
 * POST /api/Image/MarkdownToPdf (the spec's "markdown to pdf", in its Image family): a Markdown
 * document made into a PDF on the server, as text (selectable, searchable, read by screen readers),
 * not pictures. The answer is the PDF's bytes; a refusal is the JSON envelope.
 */
export const MARKDOWN_TO_PDF_PATH = '/api/Image/MarkdownToPdf';

/** The longest Markdown made into a PDF, in characters (about 2 MB of English text). */
export const PDF_MARKDOWN_MAX_CHARS = 2_000_000;
/** The longest title and file name. */
export const PDF_TITLE_MAX_CHARS = 300;
export const PDF_FILE_NAME_MAX_CHARS = 255;

export const MarkdownToPdfBodySchema = z.object({
  /** The document: CommonMark with tables, `$…$` / `$$…$$` math (shown as its TeX source) and links. */
  markdown: z
    .string()
    .max(PDF_MARKDOWN_MAX_CHARS, 'pdfMarkdownTooLong')
    .refine((text) => text.trim() !== '', 'pdfMarkdownEmpty'),
  /** Shown at the top of the first page and as the document's title; none: no title line. */
  title: z.string().max(PDF_TITLE_MAX_CHARS).optional(),
  /** The download's name (`.pdf` is added when missing); none: from the title. */
  fileName: z.string().max(PDF_FILE_NAME_MAX_CHARS).optional(),
  /** The document's language (for screen readers and the few words the server adds); none: the caller's. */
  lang: LanguageSchema.optional(),
});
export type MarkdownToPdfBody = z.infer<typeof MarkdownToPdfBodySchema>;
