import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { Codes } from '../../../shared/contracts/envelope.ts';
import { DOCUMENT_EXTENSIONS, IMAGE_EXTENSIONS, extensionOf } from '../../../shared/contracts/media.ts';
import { AppError } from '../../core/errors.ts';
import type { MessageKey } from '../../core/i18n.ts';
import { extractDocumentText } from './extraction.ts';

/** What an upload turned out to be, judged by its content (the name only says what it claims). */
export type ExaminedFile =
  | { kind: 'image'; mimeType: string }
  /** A document the model reads as text (PDF pages, DOCX, text, Markdown, CSV, JSON, code). */
  | { kind: 'document'; mimeType: string; text: string };

/** Image types a vision model takes, by sniffed MIME type. */
const IMAGE_MIME_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);
/** Beyond this an image is refused before it is decoded: a small file can declare a huge canvas. */
const MAX_IMAGE_PIXELS = 100_000_000;

const refuse = (key: MessageKey, params?: Record<string, string | number>) => new AppError(Codes.UploadRefused, key, params);

const TEXT_MIME_TYPES: Record<string, string> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  html: 'text/html',
  htm: 'text/html',
  xml: 'application/xml',
};

export const isImageExtension = (ext: string) => (IMAGE_EXTENSIONS as readonly string[]).includes(ext);
export const isDocumentExtension = (ext: string) => (DOCUMENT_EXTENSIONS as readonly string[]).includes(ext);

/** Strict UTF-8 text without NUL characters (a binary file is neither); null otherwise. The BOM is dropped. */
export function utf8Text(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
  return text.includes('\u0000') ? null : text;
}

/** Whether text is an HTML document rather than Markdown (an extension sends either for a page). */
export const looksLikeHtml = (text: string) => /^\s*(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(text);

/**
 * Judges an uploaded image or document by its bytes: an image must really be PNG, JPEG or WebP
 * (whatever its name says; the sniffed type is what counts), a PDF or DOCX must be one, and a text
 * file must be UTF-8 without NULs. Documents come back with their text (PDF and DOCX read in the
 * extraction worker, queued per `owner`). Refusals are AppErrors.
 */
export async function examineFile(bytes: Uint8Array, fileName: string, wantImage: boolean, owner: string): Promise<ExaminedFile> {
  const ext = extensionOf(fileName);
  const sniffed = bytes.length > 0 ? await fileTypeFromBuffer(bytes) : undefined;
  if (wantImage || isImageExtension(ext)) {
    if (!sniffed || !IMAGE_MIME_TYPES.has(sniffed.mime)) {
      throw refuse('fileContentMismatch', { name: fileName, type: isImageExtension(ext) ? ext.toUpperCase() : 'PNG, JPEG, WebP' });
    }
    await checkImage(bytes, fileName);
    return { kind: 'image', mimeType: sniffed.mime };
  }
  if (ext === 'pdf') {
    if (sniffed?.mime !== 'application/pdf') throw refuse('fileContentMismatch', { name: fileName, type: 'PDF' });
    const text = await extractDocumentText(owner, 'pdf', bytes, fileName);
    // The reader answers '' for a PDF without a text layer (a scan): said as such, never attached empty.
    if (!text.trim()) throw refuse('pdfNoTextLayer', { name: fileName });
    return { kind: 'document', mimeType: 'application/pdf', text };
  }
  if (ext === 'docx') {
    if (sniffed?.ext !== 'docx') throw refuse('fileContentMismatch', { name: fileName, type: 'DOCX' });
    return { kind: 'document', mimeType: sniffed.mime, text: nonEmpty(await extractDocumentText(owner, 'docx', bytes, fileName), fileName) };
  }
  const text = utf8Text(bytes);
  if (text === null) throw refuse('fileTextInvalid', { name: fileName });
  return { kind: 'document', mimeType: `${TEXT_MIME_TYPES[ext] ?? 'text/plain'}; charset=utf-8`, text: nonEmpty(text, fileName) };
}

function nonEmpty(text: string, fileName: string): string {
  if (!text.trim()) throw refuse('fileNoText', { name: fileName });
  return text;
}

/** A PDF's text carries a "--- Page N ---" line per page (document-text.ts): how many pages it had. */
export function pdfPageCount(text: string): number {
  return text.match(/^--- Page \d+ ---$/gm)?.length ?? 0;
}

/** Decodes the header only: the image must be readable and of a sane size before it is kept. */
async function checkImage(bytes: Uint8Array, fileName: string): Promise<void> {
  let meta;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw refuse('fileUnreadable', { name: fileName });
  }
  if (!meta.width || !meta.height) throw refuse('fileUnreadable', { name: fileName });
  if (meta.width * meta.height > MAX_IMAGE_PIXELS) throw refuse('imageTooLarge', { name: fileName });
}

// ---- images for the model ----

/** Longest side and size beyond which an image is scaled down before it goes to a model. */
const MODEL_IMAGE_MAX_SIDE = 2048;
const MODEL_IMAGE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * An image as a vision model gets it: as stored when it is small enough, else scaled to fit
 * 2048 px (turned upright per its EXIF orientation, metadata dropped), re-encoded in its own format,
 * or as JPEG when that is still too large.
 */
export async function imageForModel(bytes: Uint8Array, mimeType: string): Promise<{ mediaType: string; data: Uint8Array }> {
  const meta = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).metadata();
  const longest = Math.max(meta.width ?? 0, meta.height ?? 0);
  if (longest <= MODEL_IMAGE_MAX_SIDE && bytes.length <= MODEL_IMAGE_MAX_BYTES) return { mediaType: mimeType, data: bytes };
  const resized = () =>
    sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS })
      .rotate()
      .resize({ width: MODEL_IMAGE_MAX_SIDE, height: MODEL_IMAGE_MAX_SIDE, fit: 'inside', withoutEnlargement: true });
  let out: Buffer;
  let type = mimeType;
  if (mimeType === 'image/png') out = await resized().png({ compressionLevel: 9 }).toBuffer();
  else if (mimeType === 'image/webp') out = await resized().webp({ quality: 85 }).toBuffer();
  else out = await resized().jpeg({ quality: 85, mozjpeg: true }).toBuffer();
  if (out.length > MODEL_IMAGE_MAX_BYTES) {
    out = await resized().flatten({ background: '#ffffff' }).jpeg({ quality: 80, mozjpeg: true }).toBuffer();
    type = 'image/jpeg';
  }
  return { mediaType: type, data: new Uint8Array(out.buffer, out.byteOffset, out.byteLength) };
}
