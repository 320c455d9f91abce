import type { FastifyInstance } from 'fastify';
import { MARKDOWN_TO_PDF_PATH, MarkdownToPdfBodySchema, PDF_MARKDOWN_MAX_CHARS } from '../../shared/contracts/export.ts';
import { BytesSchema } from '../../shared/contracts/responses.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { addRoute, RAW } from '../http/route.ts';
import { markdownToPdf } from '../services/export/pdf.ts';

/**
 * The body's limit: the Markdown's characters as JSON (a Chinese character is 3 bytes of UTF-8, a
 * few characters are escaped as 6), with room for the other fields. A longer text is refused by the
 * contract with its own message before this bound is reached.
 */
const BODY_LIMIT = PDF_MARKDOWN_MAX_CHARS * 4 + 64 * 1024;

/** Exports: a Markdown document as a PDF made on the server (the spec's Image family). */
export function registerExportRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'POST',
    url: MARKDOWN_TO_PDF_PATH,
    // The share page offers no export: signed-in users only, and each PDF costs a worker seconds.
    auth: 'user',
    summary:
      'Makes `markdown` into an A4 PDF whose text can be selected, searched and read aloud (a tagged PDF with its language and title, headings, paragraphs, lists and tables as structure; links clickable; Chinese text embedded; code and math in monospace, math as its TeX source; page numbers). At most 2,000,000 characters (10400 beyond, and for an empty text). 10429 while the server is making as many PDFs as it queues; 10413 for a text too complex to make in 90 s.',
    body: MarkdownToPdfBodySchema,
    bodyLimit: BODY_LIMIT,
    raw: {
      description: 'The PDF, as a download (Content-Disposition: attachment) named after `fileName`, else the title.',
      content: { 'application/pdf': BytesSchema },
    },
    rateLimit: { max: 20, timeWindow: 60_000 },
    handler: async ({ ctx, user, body, lang, reply }) => {
      const pdf = await markdownToPdf(ctx, user.id, body, lang);
      reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', contentDisposition('attachment', pdf.fileName))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store');
      reply.send(Buffer.from(pdf.bytes.buffer, pdf.bytes.byteOffset, pdf.bytes.byteLength));
      return RAW;
    },
  });
}
