import { randomUUID } from 'node:crypto';
import { Codes } from '../../../shared/contracts/envelope.ts';
import { acceptedExtensions, DOCUMENT_EXTENSIONS, extensionOf, IMAGE_EXTENSIONS, type MediaFormFields, type UploadResponse } from '../../../shared/contracts/media.ts';
import { PAGE_BREAK, SERVER_DOCUMENT_EXTENSIONS, TRANSLATE_DOCUMENT_MAX_CHARS, type DocumentText } from '../../../shared/contracts/translate.ts';
import type { AppContext } from '../../context.ts';
import { chatMedia } from '../../db/schema/media.ts';
import { AppError } from '../../core/errors.ts';
import type { MessageKey } from '../../core/i18n.ts';
import { findModel } from '../catalogue/catalogue.ts';
import { examineFile, isDocumentExtension, pdfPageCount, isImageExtension, looksLikeHtml, utf8Text } from './file-content.ts';
import { fetchPublicResource, ReaderError, type ReaderErrorReason } from '../reader/safe-fetch.ts';
import { decodeHtml, readablePage, UnreadablePageError } from '../reader/web-page.ts';
import { signedMediaPath } from './links.ts';
import { videoTranscriptOf } from './video-parts.ts';

/**
 * Context users give the model, kept: a web page read by its address (UploadMedia), and uploaded
 * files, images and pages read in a tab (AddChatMedia, UploadMediaByFile, AddChatFileToAi).
 */

/** The most of a page's readable text kept; what reaches the model is cut further to its context. */
const MAX_STORED_PAGE_CHARS = 200_000;
/**
 * A video's transcript read in the tab is kept whole (the tab reader's own bound is 1,000,000
 * characters): a long one is summarised in parts rather than cut (media/video-parts.ts).
 */
const MAX_STORED_TRANSCRIPT_CHARS = 1_000_000;

export const REFUSALS: Record<ReaderErrorReason, MessageKey> = {
  badUrl: 'urlInvalid',
  blockedAddress: 'pageAddressBlocked',
  blockedPort: 'pagePortBlocked',
  tooManyRedirects: 'pageTooManyRedirects',
  timeout: 'pageTimeout',
  tooLarge: 'pageTooLarge',
  unsupportedContent: 'pageUnsupported',
  httpStatus: 'pageHttpStatus',
  fetchFailed: 'pageFetchFailed',
};

/**
 * UploadMedia: reads the web page at `url` on the server (through the SSRF-safe reader),
 * keeps its readable content as an `html` media item of the caller, and answers the Upload response.
 */
export async function readWebPage(ctx: AppContext, userId: string, url: string): Promise<UploadResponse> {
  let resource;
  try {
    // The reader's defaults: HTML only, 5 MB, 10 s.
    resource = await fetchPublicResource(url, { allowList: ctx.config.READER_ALLOWLIST });
  } catch (error) {
    if (error instanceof ReaderError) throw new AppError(Codes.UploadRefused, REFUSALS[error.reason]);
    throw error;
  }
  let page;
  try {
    page = readablePage(decodeHtml(resource.body, resource.charset), resource.url);
  } catch (error) {
    if (error instanceof UnreadablePageError) throw new AppError(Codes.UploadRefused, 'pageUnreadable');
    throw error;
  }
  if (!page.markdown) throw new AppError(Codes.UploadRefused, 'pageEmpty');

  const id = randomUUID();
  await ctx.db.insert(chatMedia).values({
    id,
    userId,
    mediaType: 'html',
    title: page.title,
    url: resource.url,
    icon: page.icon,
    contentText: page.markdown.slice(0, MAX_STORED_PAGE_CHARS),
    contentChars: page.markdown.length,
    purpose: 'page',
  });
  return { chatMediaId: id, image: { imgSrcAll: '' }, pageFilePath: '', iconStr: page.icon, pageUrl: resource.url, pageTitle: page.title };
}

// ---- uploaded files and images (AddChatMedia, UploadMediaByFile, AddChatFileToAi) ----

/** 'chat': the chat's attach/drag upload; 'ai': the generic uploader (AddChatFileToAi). */
export type UploadPurpose = 'chat' | 'ai';

/** The file part of an upload form, already read (within its size limit). */
export type UploadedFile = { fieldName: string; fileName: string; bytes: Buffer };

/** What a user may call a file: its last path segment, without control characters, at most 200 characters. */
export function cleanFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (base.length <= 200) return base || 'file';
  const ext = extensionOf(base);
  return ext && ext.length < 20 ? `${base.slice(0, 199 - ext.length)}.${ext}` : base.slice(0, 200);
}

/** Where a media item's bytes are kept in the file store (two-character folders keep listings short). */
export const storageKeyOf = (id: string) => `${id.slice(0, 2)}/${id}`;

/** The extensions the server reads, among those `aiModelId` accepts (all it reads when no model is named). */
async function uploadableExtensions(ctx: AppContext, aiModelId: string | undefined): Promise<string[]> {
  const readable = [...IMAGE_EXTENSIONS, ...DOCUMENT_EXTENSIONS] as string[];
  if (!aiModelId) return readable;
  const model = await findModel(ctx, aiModelId);
  return acceptedExtensions(model.modelMap).filter((ext) => isImageExtension(ext) || isDocumentExtension(ext));
}

/**
 * Keeps an uploaded file for the model. An `html` upload is a page the extension read from the live
 * tab (Markdown, or HTML read like UploadMedia's pages); anything else is an image or a document,
 * judged by its content (see examineFile), checked against the model's accepted types when
 * `aiModelId` is given, and its bytes kept in the file store. Answers the Upload response.
 */
export async function saveUploadedMedia(
  ctx: AppContext,
  userId: string,
  fields: MediaFormFields,
  file: UploadedFile | null,
  purpose: UploadPurpose,
): Promise<UploadResponse> {
  if (!file) throw new AppError(Codes.BadRequest, 'uploadFileMissing');
  const fileName = cleanFileName(file.fileName);
  if (fields.mediaType === 'html') return saveExtractedPage(ctx, userId, fields, file.bytes, fileName, purpose);

  const accepted = await uploadableExtensions(ctx, fields.aiModelId);
  if (!accepted.includes(extensionOf(fileName))) {
    throw new AppError(Codes.UploadRefused, 'uploadFileTypeError', { name: fileName, types: accepted.join(', ') || '-' });
  }
  const examined = await examineFile(file.bytes, fileName, fields.mediaType === 'image' || file.fieldName === 'imageFile', userId);
  const mimeType = examined.mimeType;
  const text = examined.kind === 'document' ? examined.text : '';

  const id = randomUUID();
  const storageKey = storageKeyOf(id);
  try {
    await ctx.files.put(storageKey, file.bytes, mimeType);
  } catch (err) {
    ctx.log.error({ err, storage: ctx.files.kind }, 'storing an upload failed');
    throw new AppError(Codes.ServerError, 'uploadMediaFail');
  }
  const title = fields.pageTitle || fileName;
  try {
    await ctx.db.insert(chatMedia).values({
      id,
      userId,
      mediaType: examined.kind === 'image' ? 'image' : 'file',
      title,
      url: fields.pageUrl,
      contentText: text.slice(0, MAX_STORED_PAGE_CHARS),
      contentChars: text.length,
      fileName,
      mimeType,
      byteSize: file.bytes.length,
      storageKey,
      purpose,
    });
  } catch (err) {
    await ctx.files.delete(storageKey).catch(() => {});
    throw err;
  }
  const link = signedMediaPath(ctx, id);
  return {
    chatMediaId: id,
    image: { imgSrcAll: examined.kind === 'image' ? link : '' },
    pageFilePath: link,
    iconStr: '',
    pageUrl: fields.pageUrl,
    pageTitle: title,
    ...(mimeType === 'application/pdf' ? { pageCount: pdfPageCount(text) } : {}),
  };
}

/**
 * The text of an uploaded DOCX or PDF for the Translate page (POST /api/System/DocumentText): read
 * as an attachment for the model is (examineFile: its bytes must be one, the DOCX archive guard, the
 * extraction worker and its bounds, a scanned PDF refused), answered and not kept. A PDF's pages are
 * separated by PAGE_BREAK lines instead of the model's "--- Page N ---" headings.
 */
export async function readDocumentText(userId: string, file: UploadedFile | null): Promise<DocumentText> {
  if (!file) throw new AppError(Codes.BadRequest, 'uploadFileMissing');
  const fileName = cleanFileName(file.fileName);
  if (!(SERVER_DOCUMENT_EXTENSIONS as readonly string[]).includes(extensionOf(fileName))) {
    throw new AppError(Codes.UploadRefused, 'uploadFileTypeError', { name: fileName, types: SERVER_DOCUMENT_EXTENSIONS.join(', ') });
  }
  const examined = await examineFile(file.bytes, fileName, false, userId);
  const text = examined.kind === 'document' ? examined.text : '';
  const pages = examined.mimeType === 'application/pdf' ? text.split(/^--- Page \d+ ---$/m).slice(1).map((page) => page.trim()) : null;
  const joined = pages ? pages.join(`\n\n${PAGE_BREAK}\n\n`) : text;
  if (joined.length > TRANSLATE_DOCUMENT_MAX_CHARS) {
    throw new AppError(Codes.UploadRefused, 'documentTextTooLong', { name: fileName, max: TRANSLATE_DOCUMENT_MAX_CHARS });
  }
  return { fileName, text: joined, pageCount: pages ? pages.length : null };
}

/** A page the extension extracted from the live tab: kept as text only, like UploadMedia's pages. */
async function saveExtractedPage(
  ctx: AppContext,
  userId: string,
  fields: MediaFormFields,
  bytes: Buffer,
  fileName: string,
  purpose: UploadPurpose,
): Promise<UploadResponse> {
  const text = utf8Text(bytes);
  if (text === null) throw new AppError(Codes.UploadRefused, 'fileTextInvalid', { name: fileName });
  const pageUrl = URL.canParse(fields.pageUrl) ? fields.pageUrl : '';
  let markdown = text.trim();
  let title = fields.pageTitle;
  let icon = '';
  if (['html', 'htm'].includes(extensionOf(fileName)) || looksLikeHtml(text)) {
    try {
      const page = readablePage(text, pageUrl || 'about:blank');
      markdown = page.markdown;
      title ||= page.title;
      icon = page.icon;
    } catch (error) {
      if (error instanceof UnreadablePageError) throw new AppError(Codes.UploadRefused, 'pageUnreadable');
      throw error;
    }
  }
  if (!markdown) throw new AppError(Codes.UploadRefused, 'pageEmpty');
  title ||= (pageUrl && new URL(pageUrl).hostname) || fileName;
  const kept = videoTranscriptOf({ mediaType: 'html', url: pageUrl, contentText: markdown }) ? MAX_STORED_TRANSCRIPT_CHARS : MAX_STORED_PAGE_CHARS;
  const id = randomUUID();
  await ctx.db.insert(chatMedia).values({
    id,
    userId,
    mediaType: 'html',
    title,
    url: pageUrl,
    icon,
    contentText: markdown.slice(0, kept),
    contentChars: markdown.length,
    fileName,
    purpose,
  });
  return { chatMediaId: id, image: { imgSrcAll: '' }, pageFilePath: '', iconStr: icon, pageUrl, pageTitle: title };
}
