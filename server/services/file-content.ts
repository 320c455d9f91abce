import { createRequire } from 'node:module';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { fileTypeFromBuffer } from 'file-type';
import mammoth from 'mammoth';
import sharp from 'sharp';
import { Codes } from '../../shared/contracts/envelope.ts';
import { DOCUMENT_EXTENSIONS, IMAGE_EXTENSIONS, extensionOf } from '../../shared/contracts/media.ts';
import { AppError } from '../http/errors.ts';
import type { MessageKey } from '../http/i18n.ts';

/** What an upload turned out to be, judged by its content (the name only says what it claims). */
export type ExaminedFile =
  | { kind: 'image'; mimeType: string }
  /** A document the model reads as text (PDF pages, DOCX, text, Markdown, CSV, JSON, code). */
  | { kind: 'document'; mimeType: string; text: string };

/** Image types a vision model takes, by sniffed MIME type. */
const IMAGE_MIME_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);
/** Beyond this an image is refused before it is decoded: a small file can declare a huge canvas. */
const MAX_IMAGE_PIXELS = 100_000_000;
/** A PDF with more pages, or taking longer to read, is refused (the server's thread reads it). */
const MAX_PDF_PAGES = 2000;
const PDF_READ_MS = 30_000;
/** What a DOCX's XML parts may unpack to at most: a small zip can unpack to gigabytes. */
const MAX_DOCX_XML_BYTES = 64 * 1024 * 1024;

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
 * file must be UTF-8 without NULs. Documents come back with their text. Refusals are AppErrors.
 */
export async function examineFile(bytes: Uint8Array, fileName: string, wantImage: boolean): Promise<ExaminedFile> {
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
    return { kind: 'document', mimeType: 'application/pdf', text: nonEmpty(await pdfText(bytes, fileName), fileName) };
  }
  if (ext === 'docx') {
    if (sniffed?.ext !== 'docx') throw refuse('fileContentMismatch', { name: fileName, type: 'DOCX' });
    return { kind: 'document', mimeType: sniffed.mime, text: nonEmpty(await docxText(bytes, fileName), fileName) };
  }
  const text = utf8Text(bytes);
  if (text === null) throw refuse('fileTextInvalid', { name: fileName });
  return { kind: 'document', mimeType: `${TEXT_MIME_TYPES[ext] ?? 'text/plain'}; charset=utf-8`, text: nonEmpty(text, fileName) };
}

function nonEmpty(text: string, fileName: string): string {
  if (!text.trim()) throw refuse('fileNoText', { name: fileName });
  return text;
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

// ---- PDF ----

const requireHere = createRequire(import.meta.url);
/** pdf.js's own data files, from its npm package: nothing is fetched from the network. */
const pdfjsDir = path.dirname(requireHere.resolve('pdfjs-dist/package.json'));
const pdfjsData = (folder: string) => `${path.join(pdfjsDir, folder)}${path.sep}`;

type TextItem = { str?: string; hasEOL?: boolean };

/** The text of each page, under a "--- Page N ---" line, so the model can cite pages. */
async function pdfText(bytes: Uint8Array, fileName: string): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({
    // pdf.js takes the buffer over (detaches it): it gets a copy.
    data: new Uint8Array(bytes),
    standardFontDataUrl: pdfjsData('standard_fonts'),
    cMapUrl: pdfjsData('cmaps'),
    cMapPacked: true,
    wasmUrl: pdfjsData('wasm'),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  let doc;
  try {
    doc = await task.promise;
  } catch {
    // Damaged, not a PDF after all, or encrypted with a password.
    await task.destroy();
    throw refuse('fileUnreadable', { name: fileName });
  }
  try {
    if (doc.numPages > MAX_PDF_PAGES) throw refuse('fileTooComplex', { name: fileName });
    const deadline = Date.now() + PDF_READ_MS;
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      if (Date.now() > deadline) throw refuse('fileTooComplex', { name: fileName });
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const text = (content.items as TextItem[])
        .map((item) => (item.str ?? '') + (item.hasEOL ? '\n' : ''))
        .join('')
        .replace(/[ \t]+\n/g, '\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim();
      page.cleanup();
      pages.push(text);
    }
    if (!pages.some(Boolean)) return '';
    return pages.map((text, i) => `--- Page ${i + 1} ---\n${text}`).join('\n\n');
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw refuse('fileUnreadable', { name: fileName });
  } finally {
    await doc.destroy();
  }
}

// ---- DOCX ----

/**
 * Checks what a zip's XML parts really unpack to (not what its directory claims), so that mammoth,
 * which unpacks them whole in memory, is never handed a zip bomb. Media parts are not unpacked for text.
 */
function checkZipUnpackedSize(zip: Buffer, fileName: string): void {
  const tooComplex = () => refuse('fileTooComplex', { name: fileName });
  const unreadable = () => refuse('fileUnreadable', { name: fileName });
  // End of central directory: 22 bytes plus a comment of up to 64 KiB at the end.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw unreadable();
  const entries = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  if (entries === 0xffff || at === 0xffffffff) throw tooComplex(); // zip64: no real document needs it
  let budget = MAX_DOCX_XML_BYTES;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50) throw unreadable();
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (!/\.(xml|rels)$/i.test(name)) continue;
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) throw unreadable();
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + compressed);
    let size: number;
    if (method === 0) size = data.length;
    else if (method === 8) {
      try {
        size = inflateRawSync(data, { maxOutputLength: budget + 1 }).length;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) throw tooComplex();
        throw unreadable();
      }
    } else throw unreadable();
    budget -= size;
    if (budget < 0) throw tooComplex();
  }
}

async function docxText(bytes: Uint8Array, fileName: string): Promise<string> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  checkZipUnpackedSize(buffer, fileName);
  try {
    const { value } = await mammoth.extractRawText({ buffer });
    return value.replace(/\n{3,}/g, '\n\n').trim();
  } catch {
    throw refuse('fileUnreadable', { name: fileName });
  }
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
