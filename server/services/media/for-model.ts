import { and, eq, inArray } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AppContext } from '../../context.ts';
import { chatMedia } from '../../db/schema/media.ts';
import { AppError } from '../../core/errors.ts';
import { imageForModel } from './file-content.ts';
import type { TurnImage } from '../../providers/upstream.ts';
import { partSummariesText, videoTranscriptOf, type VideoPartSummary } from './video-parts.ts';

/** Attached media as the model gets it: each user turn with its pages, files and images (AddMessage). */

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
  /** A long video transcript's part summaries (media/video-parts.ts), read in its place when it does not fit; null: none made. */
  partSummaries?: VideoPartSummary[] | null;
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
      partSummaries: chatMedia.partSummaries,
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

/**
 * The attached video transcripts that do not fit their share of `budgetChars` (as withAttachments
 * shares it) and have no part summaries yet: they are summarised in parts first (chat/video-parts.ts).
 */
export function videosToSummarise(media: readonly AttachedMedia[], budgetChars: number): AttachedMedia[] {
  const texts = media.filter((m) => m.mediaType !== 'image');
  const shares = fairShares(
    texts.map((m) => m.contentText.length),
    budgetChars,
  );
  return texts.filter((m, i) => m.contentText.length > shares[i] && !m.partSummaries && videoTranscriptOf(m));
}

/** What the model reads of an attachment that does not fit: a video's part summaries when it has them, else null. */
function summariesInstead(m: AttachedMedia): string | null {
  const video = m.partSummaries?.length ? videoTranscriptOf(m) : null;
  return video && m.partSummaries ? partSummariesText(video, m.partSummaries) : null;
}

const isPdf = (m: AttachedMedia) => m.mediaType === 'file' && m.mimeType.split(';')[0] === 'application/pdf';

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
    const whole = m.contentText.length <= shares[i] ? m.contentText : (summariesInstead(m) ?? m.contentText);
    const fits = whole.length <= shares[i];
    const text = fits ? whole : whole.slice(0, shares[i]);
    const what = m.mediaType === 'html' ? 'page' : 'file';
    const note =
      !fits || m.cut ? `\n\n[The ${what} continues beyond this point; it was cut to fit. Say so if the answer may be in the missing part.]` : '';
    return m.mediaType === 'html'
      ? `<web-page title=${JSON.stringify(m.title)} url=${JSON.stringify(m.url)}>\n${text}${note}\n</web-page>`
      : `<file name=${JSON.stringify(m.fileName || m.title)} type=${JSON.stringify(m.mimeType.split(';')[0])}${isPdf(m) && m.title && m.title !== m.fileName ? ` title=${JSON.stringify(m.title)}` : ''}>\n${text}${note}\n</file>`;
  });
  const pages = texts.filter((m) => m.mediaType === 'html').length;
  const files = texts.length - pages;
  const what = [pages ? counted(pages, 'a web page', 'web pages') : '', files ? counted(files, 'a file', 'files') : ''].filter(Boolean);
  // A PDF's text comes page by page under "--- Page N ---" lines (document-text.ts): the answer cites them.
  const cite = texts.some(isPdf)
    ? 'The PDF text above is split into pages by "--- Page N ---" lines. When you use it, cite the page each point comes from as (p. N), e.g. (p. 3).\n\n'
    : '';
  const attached = blocks.length ? `The user attached ${what.join(' and ')} to this message:\n\n${blocks.join('\n\n')}\n\n${cite}` : '';
  const notes = images.map((m) => `[image: ${m.fileName || m.title}]\n`).join('');
  return `${attached}${notes}${notes ? '\n' : ''}${input}`;
}

/** Uploads that were never sent with a message are kept this long (a draft may wait a while), then removed. */
