import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import { Codes } from '../../shared/contracts/envelope.ts';
import {
  acceptedExtensions,
  DOCUMENT_EXTENSIONS,
  extensionOf,
  IMAGE_EXTENSIONS,
  type MediaFileQuery,
  type MediaFormFields,
  type UploadResponse,
} from '../../shared/contracts/media.ts';
import type { AppContext } from '../context.ts';
import { chatMedia } from '../db/schema/media.ts';
import { AppError } from '../http/errors.ts';
import type { MessageKey } from '../http/i18n.ts';
import { findModel } from './catalogue.ts';
import { examineFile, imageForModel, isDocumentExtension, isImageExtension, looksLikeHtml, utf8Text } from './file-content.ts';
import type { TurnImage } from './model-stream.ts';
import { fetchPublicResource, ReaderError, type ReaderErrorReason } from './reader/safe-fetch.ts';
import { derivedKey } from './secrets.ts';
import { decodeHtml, readablePage, UnreadablePageError } from './web-page.ts';

/** The most of a page's readable text kept; what reaches the model is cut further to its context. */
const MAX_STORED_PAGE_CHARS = 200_000;

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
 * Spec §7 UploadMedia: reads the web page at `url` on the server (through the SSRF-safe reader),
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
function cleanFileName(name: string): string {
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
  const examined = await examineFile(file.bytes, fileName, fields.mediaType === 'image' || file.fieldName === 'imageFile');
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
  };
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
  const id = randomUUID();
  await ctx.db.insert(chatMedia).values({
    id,
    userId,
    mediaType: 'html',
    title,
    url: pageUrl,
    icon,
    contentText: markdown.slice(0, MAX_STORED_PAGE_CHARS),
    contentChars: markdown.length,
    fileName,
    purpose,
  });
  return { chatMediaId: id, image: { imgSrcAll: '' }, pageFilePath: '', iconStr: icon, pageUrl, pageTitle: title };
}

// ---- links to stored bytes ----

/** How long a signed link works at least; it ends on a day boundary, so it stays the same all day (and caches). */
const MEDIA_LINK_DAYS = 7;
const DAY_SECONDS = 86_400;

const linkSignature = (ctx: AppContext, id: string, exp: number) =>
  createHmac('sha256', derivedKey(ctx, 'media-link')).update(`${id}\n${exp}`).digest('base64url');

/**
 * The address of a media item's bytes that works without a token (for <img src> and downloads)
 * until it expires: GET /api/Chat/GetChatMedia with an HMAC of the id and expiry under the server's
 * secret. Relative: the client prefixes its server (spec §5).
 */
export function signedMediaPath(ctx: AppContext, id: string, now = Date.now()): string {
  const exp = Math.ceil(now / 1000 / DAY_SECONDS + MEDIA_LINK_DAYS) * DAY_SECONDS;
  return `/api/Chat/GetChatMedia?chatMediaId=${encodeURIComponent(id)}&exp=${exp}&sig=${linkSignature(ctx, id, exp)}`;
}

function validSignature(ctx: AppContext, q: MediaFileQuery): boolean {
  const exp = Number(q.exp);
  if (!q.sig || !/^\d{1,12}$/.test(q.exp ?? '') || exp * 1000 < Date.now()) return false;
  const expected = Buffer.from(linkSignature(ctx, q.chatMediaId, exp));
  const given = Buffer.from(q.sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export type MediaFile = { bytes: Buffer; mimeType: string; fileName: string; isImage: boolean };

/**
 * The stored bytes of a media item, for its owner or a valid signed link; null for anyone else,
 * exactly as for an item that does not exist (or keeps no bytes, like a page).
 */
export async function readMediaFile(ctx: AppContext, userId: string | null, q: MediaFileQuery): Promise<MediaFile | null> {
  const signed = validSignature(ctx, q);
  if (!signed && !userId) return null;
  const [row] = await ctx.db
    .select({ userId: chatMedia.userId, mediaType: chatMedia.mediaType, fileName: chatMedia.fileName, mimeType: chatMedia.mimeType, storageKey: chatMedia.storageKey })
    .from(chatMedia)
    .where(eq(chatMedia.id, q.chatMediaId));
  if (!row || !row.storageKey || (!signed && row.userId !== userId)) return null;
  const bytes = await ctx.files.get(row.storageKey);
  if (!bytes) {
    ctx.log.warn({ chatMediaId: q.chatMediaId, storage: ctx.files.kind }, 'stored media bytes are missing');
    return null;
  }
  return { bytes, mimeType: row.mimeType || 'application/octet-stream', fileName: row.fileName, isImage: row.mediaType === 'image' };
}

// ---- media for the model (AddMessage) ----

/** A media item as the model gets it. */
export interface AttachedMedia {
  id: string;
  mediaType: string;
  title: string;
  url: string;
  contentText: string;
  /** The content was longer than what was kept. */
  cut: boolean;
  fileName: string;
  mimeType: string;
  /** Where an image's or file's bytes are; '' for pages. */
  storageKey: string;
}

/**
 * The caller's media among `ids`, by id. Another user's item is missing from the result, exactly as
 * one that does not exist.
 */
export async function loadOwnMedia(ctx: AppContext, userId: string, ids: readonly string[]): Promise<Map<string, AttachedMedia>> {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db
    .select({
      id: chatMedia.id,
      mediaType: chatMedia.mediaType,
      title: chatMedia.title,
      url: chatMedia.url,
      contentText: chatMedia.contentText,
      contentChars: chatMedia.contentChars,
      fileName: chatMedia.fileName,
      mimeType: chatMedia.mimeType,
      storageKey: chatMedia.storageKey,
    })
    .from(chatMedia)
    .where(and(eq(chatMedia.userId, userId), inArray(chatMedia.id, [...new Set(ids)])));
  return new Map(rows.map(({ contentChars, ...row }) => [row.id, { ...row, cut: contentChars > row.contentText.length }]));
}

/** An attached image as a vision model gets it (scaled down when huge). */
export async function imageOfMedia(ctx: AppContext, media: AttachedMedia): Promise<TurnImage> {
  const bytes = media.storageKey ? await ctx.files.get(media.storageKey) : null;
  if (!bytes) throw new AppError(Codes.NotFound, 'mediaGone');
  return imageForModel(bytes, media.mimeType);
}

/**
 * Splits `budget` characters among texts of these lengths: short ones get all they need, the rest
 * share what is left equally (at least 500 characters each).
 */
function fairShares(lengths: number[], budget: number): number[] {
  const shares = new Array<number>(lengths.length);
  const order = lengths.map((length, i) => ({ length, i })).sort((a, b) => a.length - b.length);
  let left = budget;
  order.forEach(({ length, i }, k) => {
    const share = Math.max(500, Math.floor(left / (order.length - k)));
    shares[i] = Math.min(length, share);
    left = Math.max(0, left - shares[i]);
  });
  return shares;
}

const counted = (n: number, one: string, many: string) => (n === 1 ? one : `${n} ${many}`);

/**
 * A user message with what is attached to it, as the model reads it: each page and file inside a
 * tag that names it, cut to `budgetChars` in all with a note saying so, then the user's own words.
 * Images travel as image parts of the turn; with `imageNotes` (earlier turns, whose images are not
 * sent again) each is named in a short "[image: name]" note instead.
 */
export function withAttachments(
  input: string,
  media: readonly AttachedMedia[],
  budgetChars: number,
  opts: { imageNotes?: boolean } = {},
): string {
  const texts = media.filter((m) => m.mediaType !== 'image');
  const images = opts.imageNotes ? media.filter((m) => m.mediaType === 'image') : [];
  if (texts.length === 0 && images.length === 0) return input;
  const shares = fairShares(
    texts.map((m) => m.contentText.length),
    budgetChars,
  );
  const blocks = texts.map((m, i) => {
    const fits = m.contentText.length <= shares[i];
    const text = fits ? m.contentText : m.contentText.slice(0, shares[i]);
    const what = m.mediaType === 'html' ? 'page' : 'file';
    const note =
      !fits || m.cut ? `\n\n[The ${what} continues beyond this point; it was cut to fit. Say so if the answer may be in the missing part.]` : '';
    return m.mediaType === 'html'
      ? `<web-page title=${JSON.stringify(m.title)} url=${JSON.stringify(m.url)}>\n${text}${note}\n</web-page>`
      : `<file name=${JSON.stringify(m.fileName || m.title)} type=${JSON.stringify(m.mimeType.split(';')[0])}>\n${text}${note}\n</file>`;
  });
  const pages = texts.filter((m) => m.mediaType === 'html').length;
  const files = texts.length - pages;
  const what = [pages ? counted(pages, 'a web page', 'web pages') : '', files ? counted(files, 'a file', 'files') : ''].filter(Boolean);
  const attached = blocks.length ? `The user attached ${what.join(' and ')} to this message:\n\n${blocks.join('\n\n')}\n\n` : '';
  const notes = images.map((m) => `[image: ${m.fileName || m.title}]\n`).join('');
  return `${attached}${notes}${notes ? '\n' : ''}${input}`;
}

/** Uploads that were never sent with a message are kept this long (a draft may wait a while), then removed. */
export const UNSENT_MEDIA_TTL_MS = 24 * 60 * 60 * 1000;
const MEDIA_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** No message of the media item's owner carries it. */
const carriedByNoMessage = sql`not exists (
  select 1 from chat_messages m
  where m.user_id = ${chatMedia.userId} and m.media_ids @> jsonb_build_array(${chatMedia.id})
)`;

/** Removes stored bytes, after their rows are gone; a failure only leaves an orphan, which is logged. */
async function deleteStoredBytes(ctx: AppContext, keys: readonly string[]): Promise<void> {
  const results = await Promise.allSettled(keys.filter(Boolean).map((key) => ctx.files.delete(key)));
  for (const result of results) {
    if (result.status === 'rejected') ctx.log.warn({ err: result.reason }, 'removing stored media bytes failed');
  }
}

/**
 * After messages of the caller were deleted (a chat, all chats, one message): their media items that
 * no remaining message carries go too, rows and stored bytes, so a deleted chat keeps no files behind.
 */
export async function forgetDetachedMedia(ctx: AppContext, userId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const gone = await ctx.db
    .delete(chatMedia)
    .where(and(eq(chatMedia.userId, userId), inArray(chatMedia.id, [...new Set(ids)]), carriedByNoMessage))
    .returning({ key: chatMedia.storageKey });
  await deleteStoredBytes(ctx, gone.map((g) => g.key));
}

/**
 * Removes uploads older than UNSENT_MEDIA_TTL_MS that no message carries (attached, then never sent).
 * Generated images (purpose 'draw') live in tool calls, not in messages' media, and are kept.
 */
export async function sweepUnsentMedia(ctx: AppContext, now = Date.now()): Promise<number> {
  const gone = await ctx.db
    .delete(chatMedia)
    .where(and(lt(chatMedia.createdAt, new Date(now - UNSENT_MEDIA_TTL_MS)), ne(chatMedia.purpose, 'draw'), carriedByNoMessage))
    .returning({ key: chatMedia.storageKey });
  await deleteStoredBytes(ctx, gone.map((g) => g.key));
  return gone.length;
}

/** Sweeps unsent uploads every hour while the instance runs. Returns the stop. */
export function startMediaSweep(ctx: AppContext): () => void {
  const timer = setInterval(() => {
    sweepUnsentMedia(ctx).catch((err: unknown) => ctx.log.error({ err }, 'sweeping unsent media failed'));
  }, MEDIA_SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
