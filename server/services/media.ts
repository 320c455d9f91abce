import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { Codes } from '../../shared/contracts/envelope.ts';
import type { UploadResponse } from '../../shared/contracts/media.ts';
import type { AppContext } from '../context.ts';
import { chatMedia } from '../db/schema/media.ts';
import { AppError } from '../http/errors.ts';
import type { MessageKey } from '../http/i18n.ts';
import { fetchPublicResource, ReaderError, type ReaderErrorReason } from './reader/safe-fetch.ts';
import { decodeHtml, readablePage, UnreadablePageError } from './web-page.ts';

/** The most of a page's readable text kept; what reaches the model is cut further to its context. */
const MAX_STORED_PAGE_CHARS = 200_000;

const REFUSALS: Record<ReaderErrorReason, MessageKey> = {
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
  });
  return { chatMediaId: id, image: { imgSrcAll: '' }, pageFilePath: '', iconStr: page.icon, pageUrl: resource.url, pageTitle: page.title };
}

/** A media item as the model gets it. */
export interface AttachedMedia {
  id: string;
  mediaType: string;
  title: string;
  url: string;
  contentText: string;
  /** The page was longer than what was kept. */
  cut: boolean;
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
    })
    .from(chatMedia)
    .where(and(eq(chatMedia.userId, userId), inArray(chatMedia.id, [...new Set(ids)])));
  return new Map(rows.map(({ contentChars, ...row }) => [row.id, { ...row, cut: contentChars > row.contentText.length }]));
}

/**
 * A user message with the pages attached to it, as the model reads it: each page inside a tag that
 * names it, cut to `budgetChars` in all with a note saying so, then the user's own words.
 */
export function withAttachedPages(input: string, media: readonly AttachedMedia[], budgetChars: number): string {
  const pages = media.filter((m) => m.mediaType === 'html');
  if (pages.length === 0) return input;
  const share = Math.max(500, Math.floor(budgetChars / pages.length));
  const blocks = pages.map((page) => {
    const fits = page.contentText.length <= share;
    const text = fits ? page.contentText : page.contentText.slice(0, share);
    const note =
      !fits || page.cut ? '\n\n[The page continues beyond this point; it was cut to fit. Say so if the answer may be in the missing part.]' : '';
    return `<web-page title=${JSON.stringify(page.title)} url=${JSON.stringify(page.url)}>\n${text}${note}\n</web-page>`;
  });
  return `The user attached ${pages.length === 1 ? 'a web page' : `${pages.length} web pages`} to this message:\n\n${blocks.join('\n\n')}\n\n${input}`;
}
