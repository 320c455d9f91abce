import type { FastifyReply, FastifyRequest } from 'fastify';
import { Codes } from '../../shared/contracts/envelope.ts';
import type { UploadedFile } from '../services/media/upload.ts';
import { AppError } from '../core/errors.ts';
import { decodeUtf8, refuseBadInput } from './input-guard.ts';

const MB = 1024 * 1024;
/** What a form adds around its file (boundaries, part headers, the text fields) at most. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

export type UploadForm = { fields: Record<string, string>; file: UploadedFile | null };

/**
 * A text field as sent: fields arrive as latin1 (one character per byte, app.ts) and must be UTF-8,
 * under the same rule as every other input (server/http/input-guard.ts). A part that names its own
 * charset was decoded by it already.
 */
function fieldText(value: string, mimetype: string | undefined): string {
  const text = /charset=/i.test(mimetype ?? '') ? value : decodeUtf8(Buffer.from(value, 'latin1'));
  refuseBadInput(text);
  return text;
}

/**
 * Reads a multipart upload: its text fields and its one file, counting the file's bytes as they
 * arrive and giving up as soon as they pass `maxBytes` (fileSizeExceed): nothing past the limit is
 * kept, and the connection is closed rather than read to its end. A second file is refused
 * (attachmentCountExceed: one file per upload).
 */
export async function readUploadForm(req: FastifyRequest, reply: FastifyReply, maxBytes: number): Promise<UploadForm> {
  if (!req.isMultipart()) {
    throw new AppError(Codes.BadRequest, 'badRequest', { detail: 'send the file as multipart/form-data' });
  }
  const tooLarge = () => {
    reply.header('connection', 'close');
    return new AppError(Codes.PayloadTooLarge, 'fileSizeExceed', { max: Math.round((maxBytes / MB) * 10) / 10 });
  };
  // A body declared far larger than the limit is refused before any of it is read.
  if (Number(req.headers['content-length']) > maxBytes + FORM_OVERHEAD_BYTES) throw tooLarge();

  const fields: Record<string, string> = {};
  let file: UploadedFile | null = null;
  try {
    for await (const part of req.parts({ limits: { fileSize: maxBytes } })) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw new AppError(Codes.BadRequest, 'badRequest', { detail: `${part.fieldname}: too long` });
        if (typeof part.value === 'string') fields[part.fieldname] = fieldText(part.value, part.mimetype);
        continue;
      }
      if (file) throw new AppError(Codes.UploadRefused, 'attachmentCountExceed', { max: 1 });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        size += chunk.length;
        // busboy stops at the limit (and marks the file truncated); counting here holds whatever it does.
        if (size > maxBytes) throw tooLarge();
        chunks.push(chunk);
      }
      if (part.file.truncated) throw tooLarge();
      file = { fieldName: part.fieldname, fileName: part.filename ?? '', bytes: Buffer.concat(chunks) };
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw new AppError(Codes.UploadRefused, 'attachmentCountExceed', { max: 1 });
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    // A malformed or cut-off form, too many parts or fields.
    throw new AppError(Codes.BadRequest, 'badRequest', { detail: error instanceof Error ? error.message : 'malformed form' });
  }
  return { fields, file };
}
