import { and, eq, isNull } from 'drizzle-orm';
import { TRANSCRIPT_HEADING, videoPlatformOf } from '../../../shared/utils/video-address.ts';
import type { AppContext } from '../../context.ts';
import { chatMedia, type VideoPartSummary } from '../../db/schema/media.ts';

/**
 * A long video's transcript in parts (docs/help/en/videos.md#long-videos): an attached watch page
 * whose transcript does not fit its share of the model's context is split at line boundaries into
 * parts that each fit the context, each part is summarised by the model keeping its timestamps
 * (chat/video-parts.ts), and the model answering gets the part summaries, in order, instead of a
 * transcript cut short. The summaries are kept with the attachment (chat_media.part_summaries).
 */

export type { VideoPartSummary };

/** What of an attachment is a video transcript: the lines before it (title, facts, chapters, description) and its lines. */
export type VideoTranscript = { head: string; lines: string[] };

/** A part of a transcript: its lines and the timestamps of its first and last line. */
export type TranscriptPart = { from: string; to: string; text: string };

/** The head before the transcript is kept in the answer's prompt up to this many characters. */
const MAX_HEAD_CHARS = 4000;

/**
 * The transcript of an attached video page (its address a YouTube or Bilibili watch page, its text the
 * tab reader's Markdown with a transcript heading), or null for anything else.
 */
export function videoTranscriptOf(m: { mediaType: string; url: string; contentText: string }): VideoTranscript | null {
  if (m.mediaType !== 'html' || !videoPlatformOf(m.url)) return null;
  const at = m.contentText.indexOf(`\n${TRANSCRIPT_HEADING}\n`);
  if (at < 0) return null;
  const lines = m.contentText
    .slice(at + TRANSCRIPT_HEADING.length + 2)
    .split('\n')
    .filter((line) => line.trim());
  return lines.length ? { head: m.contentText.slice(0, at).trim().slice(0, MAX_HEAD_CHARS), lines } : null;
}

const stampOf = (line: string) => /^\[((?:\d{1,2}:)?\d{1,2}:\d{2})\]/.exec(line)?.[1] ?? '';

/**
 * The lines in consecutive parts of at most `partChars` characters each, cut between lines (a single
 * longer line is cut into pieces of its own); each part named by its first and last timestamp.
 */
export function splitTranscript(lines: readonly string[], partChars: number): TranscriptPart[] {
  const parts: string[][] = [];
  let current: string[] = [];
  let size = 0;
  const flush = () => {
    if (current.length) parts.push(current);
    [current, size] = [[], 0];
  };
  for (const line of lines) {
    for (let i = 0; i < line.length; i += partChars) {
      const piece = line.slice(i, i + partChars);
      if (size + piece.length + 1 > partChars) flush();
      current.push(piece);
      size += piece.length + 1;
    }
  }
  flush();
  return parts.map((p) => {
    const stamps = p.map(stampOf).filter(Boolean);
    return { from: stamps[0] ?? '', to: stamps.at(-1) ?? '', text: p.join('\n') };
  });
}

/** The part summaries as the answering model reads them, in place of the transcript. */
export function partSummariesText(video: VideoTranscript, summaries: readonly VideoPartSummary[]): string {
  const range = (s: VideoPartSummary) => (s.from ? ` [${s.from}]–[${s.to}]` : '');
  return [
    video.head,
    '',
    `${TRANSCRIPT_HEADING}, summarised in ${summaries.length} parts`,
    '',
    `The transcript was too long to read at once, so it was split into ${summaries.length} consecutive parts and each part was summarised with its timestamps. ` +
      'These part summaries, in order, cover the whole video from beginning to end: answer from them, and cite the timestamps they give.',
    '',
    ...summaries.flatMap((s, i) => [`### Part ${i + 1} of ${summaries.length}${range(s)}`, '', s.summary.trim(), '']),
  ]
    .join('\n')
    .trim();
}

/**
 * Keeps a video's part summaries with its attachment for follow-ups. Written once, whole (the first
 * complete set wins): a failed summary writes nothing.
 */
export async function savePartSummaries(ctx: AppContext, mediaId: string, summaries: VideoPartSummary[]): Promise<void> {
  await ctx.db
    .update(chatMedia)
    .set({ partSummaries: summaries })
    .where(and(eq(chatMedia.id, mediaId), isNull(chatMedia.partSummaries)));
}
