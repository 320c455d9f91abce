import { Codes } from '../../../shared/contracts/envelope.ts';
import type { CatalogueModel } from '../../../shared/contracts/model.ts';
import { AppError } from '../../core/errors.ts';
import { failureOf } from '../../core/failures.ts';
import { t } from '../../core/i18n.ts';
import { UpstreamFailure } from '../../core/upstream-failure.ts';
import type { ChatTurn } from '../../providers/upstream.ts';
import type { AttachedMedia } from '../media/for-model.ts';
import { savePartSummaries, splitTranscript, videoTranscriptOf, type TranscriptPart, type VideoPartSummary } from '../media/video-parts.ts';
import { chargePoints, refundPoints } from '../points/ledger.ts';
import { openModelStream, type ResolvedModel } from './model-stream.ts';
import type { Language } from '../../../shared/contracts/common.ts';
import type { AppContext } from '../../context.ts';
import { CHARS_PER_TOKEN, pageBudgetOf } from './context-budget.ts';
import type { AnswerMetering } from './token-metering.ts';

/**
 * Long videos (docs/help/en/videos.md#long-videos): an attached transcript too long for the model's
 * context is summarised part by part by the same model before it answers, and the answer reads the
 * part summaries instead (media/video-parts.ts). The parts are priced as messages of that model
 * (docs/economy.md#long-videos), charged once per message and video before they are asked, and given
 * back when any of them fails or the answer is stopped meanwhile.
 */

/** Parts asked at once. */
const PART_CONCURRENCY = 3;
/** Parts one video may take at most (its price grows with them). */
const MAX_VIDEO_PARTS = 60;
/** Each part's summary gets at least this much room in the answer's prompt; fewer parts fit when it would not. */
const MIN_SUMMARY_CHARS = 600;

const INSTRUCTIONS = [
  'You summarise one part of the transcript of a long video; the other parts are summarised separately and the summaries are joined in order.',
  'Write the main points of this part, in order, as a short Markdown list. Start each point with the timestamp of the transcript line it comes from, exactly as written there in square brackets: [mm:ss] or [h:mm:ss].',
  'Use only what this part says; do not introduce or conclude the whole video. Write in the language of the transcript.',
].join('\n');

/** One long video of a message: its parts, and the room each part's summary gets. */
export type VideoPartsOf = { media: AttachedMedia; title: string; parts: TranscriptPart[]; maxOutputTokens: number };

/** What a message with long videos does before it is answered (chat/prepare.ts PreparedMessage.videoParts). */
export type VideoPartsJob = {
  videos: VideoPartsOf[];
  /** The conversation for the model with these videos' part summaries (by media id) in place of their transcripts. */
  turnsWith(summaries: Map<string, VideoPartSummary[]>): Promise<ChatTurn[]>;
};

/**
 * `media` (a video transcript too long for `model`'s context) split into parts that each fit the
 * context with room for the instructions and the summary. Refused (before anything is charged) when
 * the summaries of that many parts could not all fit the answer's prompt.
 */
export function partsOfVideo(media: AttachedMedia, model: CatalogueModel): VideoPartsOf {
  const video = videoTranscriptOf(media)!;
  const budget = pageBudgetOf(model.contextWindow);
  const parts = splitTranscript(video.lines, budget);
  const max = Math.min(MAX_VIDEO_PARTS, Math.floor(budget / MIN_SUMMARY_CHARS));
  if (parts.length > max) throw new AppError(Codes.ContextTooLong, 'videoTooLong', { model: model.name, parts: parts.length, max });
  // The summaries share the attachments' room in the answer's prompt; each fits what is left of a part's call.
  const perPart = Math.floor(budget / parts.length / CHARS_PER_TOKEN);
  const maxOutputTokens = Math.max(1, Math.min(perPart, Math.floor(model.contextWindow * 0.3)));
  return { media, title: media.title, parts, maxOutputTokens };
}

/**
 * What summarising needs of the answer being streamed: a part of rounds.ts's VideoPartsAnswer (named here,
 * so this module, which prepare.ts and rounds.ts both use, imports neither).
 */
export type VideoPartsAnswer = {
  ctx: AppContext;
  lang: Language;
  signal: AbortSignal;
  stored: Promise<unknown>;
  progress: number;
  metering: Pick<AnswerMetering, 'failures'>;
  p: { messageId: string; userId: string; resolved: ResolvedModel; turns: ChatTurn[]; videoParts: VideoPartsJob | null };
};

/** One part's summary: a whole answer of the message's model (failover as in the chat). */
async function summarisePart(s: VideoPartsAnswer, v: VideoPartsOf, i: number, signal: AbortSignal): Promise<string> {
  const part = v.parts[i];
  const words = Math.max(40, Math.floor((v.maxOutputTokens * CHARS_PER_TOKEN) / 7));
  const range = part.from ? `, from [${part.from}] to [${part.to}]` : '';
  const messages: ChatTurn[] = [
    { role: 'system', content: `${INSTRUCTIONS}\nAt most about ${words} words.` },
    { role: 'user', content: `Video: ${v.title.replace(/\s+/g, ' ')}\nPart ${i + 1} of ${v.parts.length}${range}. Transcript of this part:\n\n${part.text}` },
  ];
  const opened = await openModelStream(s.ctx, s.p.resolved, {
    messages,
    signal,
    maxOutputTokens: v.maxOutputTokens,
    onFailure: (failure) => s.metering.failures.push(failure),
  });
  let text = '';
  for await (const piece of opened.parts) {
    if (piece.type === 'text') text += piece.text;
    else if (piece.type === 'finish' && piece.reason === 'error') throw new UpstreamFailure('request', 'the model ended its answer with an error');
  }
  if (!text.trim()) throw new UpstreamFailure('busy', 'the model gave an empty summary');
  return text.replaceAll('\u0000', '').trim();
}

/** All parts of one video, PART_CONCURRENCY at a time; the first failure stops the others and names its part. */
async function summariseVideo(s: VideoPartsAnswer, v: VideoPartsOf): Promise<VideoPartSummary[]> {
  const stop = new AbortController();
  const signal = AbortSignal.any([s.signal, stop.signal]);
  const summaries = new Array<VideoPartSummary>(v.parts.length);
  let next = 0;
  let failed: { part: number; err: unknown } | null = null;
  const worker = async () => {
    while (!failed && next < v.parts.length) {
      const i = next++;
      try {
        const summary = await summarisePart(s, v, i, signal);
        summaries[i] = { from: v.parts[i].from, to: v.parts[i].to, summary };
        s.progress++;
      } catch (err) {
        failed ??= { part: i + 1, err };
        stop.abort(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PART_CONCURRENCY, v.parts.length) }, worker));
  if (!failed) return summaries;
  const { part, err } = failed as { part: number; err: unknown };
  // A stop of the answer (or its time-out) ends it as such; our own fault stays one (logged as such).
  if (s.signal.aborted) throw s.signal.reason ?? err;
  const failure = failureOf(err, '');
  if (failure.serverFault) throw err;
  const reason = t(s.lang, failure.key, failure.params).replace(/[^.。!?！？]$/, (c) => c + (s.lang === 'zh' ? '。' : '.'));
  throw new AppError(failure.code, 'videoPartFailed', { part, parts: v.parts.length, reason });
}

/**
 * The conversation for the model with each long video's part summaries in place of its transcript:
 * the parts charged (once the message is stored and charged), asked, and kept with the attachment,
 * one video after another. Any failure gives the video's charge back and rejects (the answer ends with it).
 */
export async function withVideoPartSummaries(s: VideoPartsAnswer): Promise<ChatTurn[]> {
  const job = s.p.videoParts;
  if (!job) return s.p.turns;
  // Nothing is spent for a message that was refused (points, plan, login).
  await s.stored;
  const { ctx, p } = s;
  const price = p.resolved.model.pointsCost;
  const summaries = new Map<string, VideoPartSummary[]>();
  for (const v of job.videos) {
    const cost = v.parts.length * price;
    const key = `video-parts:${p.messageId}:${v.media.id}`;
    const charged = cost <= 0 || (await chargePoints(ctx.db, p.userId, cost, ctx.config.FREE_DAILY_POINTS, { kind: 'message', key, refId: p.messageId }));
    if (!charged) throw new AppError(Codes.NotEnoughPoints, 'videoPartsNoPoints', { parts: v.parts.length, points: cost });
    try {
      const made = await summariseVideo(s, v);
      await savePartSummaries(ctx, v.media.id, made);
      summaries.set(v.media.id, made);
    } catch (err) {
      await refundPoints(ctx.db, p.userId, cost, { key: `refund:${key}`, refId: p.messageId });
      throw err;
    }
  }
  return job.turnsWith(summaries);
}
