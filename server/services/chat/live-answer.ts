import { z } from 'zod';
import { ChatCitationSchema, ChatToolCallSchema, type ChatCitation, type ChatStreamData, type ChatStreamExtras, type ChatToolCall } from '../../../shared/contracts/chat.ts';
import type { AppContext } from '../../context.ts';
import { isMessageKey, type MessageKey } from '../../core/i18n.ts';

/**
 * The writer's side of a live answer (chat/resume.ts is the reader's): what the stream in this
 * instance tells its readers here, and what it publishes on the bus while readers elsewhere watch.
 * The registry of running answers (chat/running.ts) keeps each one's LiveAnswer.
 */

export const WATCH_CHANNEL = 'chat-watch';
export const LIVE_CHANNEL = 'chat-live';
/** The owner publishes for a reader this long after its last watch. */
const WATCH_LEASE_MS = 10_000;
/** Text per bus message: at most 6 bytes per code unit as JSON (\uXXXX), well inside NOTIFY's 8000-byte payload. */
const PIECE_UNITS = 1_000;
/** Sources and tool calls larger than this (JSON bytes) stay off the bus: readers elsewhere read them from the row at the end. */
const MAX_EXTRAS_BYTES = 6_000;

/** How an answer ended, as its asker's last event said it. */
export type AnswerEnd = {
  finishReason: string;
  failure: { code: number; key: MessageKey; params?: Record<string, string | number> } | null;
  modelId: string;
  modelName: string;
  /** The whole answer's length (UTF-16 code units): a reader elsewhere with less has a gap. */
  length: number;
};

/** What the stream keeps of its answer (chat/rounds.ts' AnswerState has all of it). */
export type LiveState = { output: string; modelId: string; modelName: string; citations: ChatCitation[]; toolCalls: ChatToolCall[] };

type LiveListener = {
  /** `piece` has just been added at the end of `state.output`. */
  text(piece: string, state: LiveState): void;
  extras(state: LiveState): void;
  end(end: AnswerEnd): void;
};

/** An answer streaming in this instance, as readers follow it. */
export type LiveAnswer = {
  /** The ids and input of its events. */
  readonly data: ChatStreamData;
  /** The answer's state, once it exists (right after the stream registered). */
  track(state: LiveState): void;
  state(): LiveState;
  ended(): AnswerEnd | null;
  listen(listener: LiveListener): () => void;
  /** Called by the stream: text added, sources or tool calls changed, the end stored. */
  onText(piece: string): void;
  onExtras(): void;
  onEnd(end: AnswerEnd): void;
  /** A reader elsewhere follows from `from` (null: still follows, renewing its watch). */
  watch(from: number | null): void;
};

export const WatchSchema = z.object({ m: z.string(), f: z.number().int().min(0).nullable() });

export const LiveMessageSchema = z.discriminatedUnion('k', [
  z.object({ k: z.literal('text'), m: z.string(), o: z.number().int().min(0), t: z.string(), mi: z.string(), mn: z.string() }),
  z.object({ k: z.literal('extras'), m: z.string(), c: z.array(ChatCitationSchema), tc: z.array(ChatToolCallSchema) }),
  z.object({
    k: z.literal('end'),
    m: z.string(),
    e: z.object({
      finishReason: z.string(),
      failure: z
        .object({ code: z.number().int(), key: z.custom<MessageKey>((v) => typeof v === 'string' && isMessageKey(v)), params: z.record(z.string(), z.union([z.string(), z.number()])).optional() })
        .nullable(),
      modelId: z.string(),
      modelName: z.string(),
      length: z.number().int().min(0),
    }),
  }),
]);
export type LiveMessage = z.infer<typeof LiveMessageSchema>;

export const extrasOf = (citations: ChatCitation[], toolCalls: ChatToolCall[]): ChatStreamExtras => ({
  ...(citations.length ? { Citations: citations } : {}),
  ...(toolCalls.length ? { ToolCalls: toolCalls } : {}),
});

/** The owner's side: what readers here listen to, and what is published for readers elsewhere while they watch. */
export function createLiveAnswer(ctx: AppContext, data: ChatStreamData): LiveAnswer {
  const messageId = data.ChatMessageId;
  let state: LiveState = { output: '', modelId: data.ModelId, modelName: data.ModelName, citations: [], toolCalls: [] };
  let end: AnswerEnd | null = null;
  const listeners = new Set<LiveListener>();
  let watchedUntil = 0;
  /** Text published for readers elsewhere up to here. */
  let published = 0;
  let extrasChanged = false;
  let endPublished = false;
  let pumping = false;
  const publish = (message: LiveMessage) => ctx.bus.publish(LIVE_CHANNEL, JSON.stringify(message));

  /** One message at a time and in order: what comes meanwhile goes out with the next one. */
  const pump = () => {
    if (pumping || Date.now() >= watchedUntil) return;
    pumping = true;
    void (async () => {
      try {
        while (Date.now() < watchedUntil) {
          const text = state.output;
          if (published < text.length) {
            const from = published;
            const piece = text.slice(from, from + PIECE_UNITS);
            published = from + piece.length;
            await publish({ k: 'text', m: messageId, o: from, t: piece, mi: state.modelId, mn: state.modelName });
          } else if (extrasChanged) {
            extrasChanged = false;
            const message: LiveMessage = { k: 'extras', m: messageId, c: state.citations, tc: state.toolCalls };
            if (Buffer.byteLength(JSON.stringify(message)) <= MAX_EXTRAS_BYTES) await publish(message);
          } else if (end && !endPublished) {
            endPublished = true;
            await publish({ k: 'end', m: messageId, e: end });
          } else break;
        }
      } catch (err) {
        // A reader that misses a piece asks again; one that misses the end sees it in the row.
        ctx.log.warn({ err, messageId }, 'publishing an answer for its readers in other instances failed');
      } finally {
        pumping = false;
      }
    })();
  };

  return {
    data,
    track: (s) => void (state = s),
    state: () => state,
    ended: () => end,
    listen(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    onText(piece) {
      for (const l of listeners) l.text(piece, state);
      if (watchedUntil) pump();
    },
    onExtras() {
      for (const l of listeners) l.extras(state);
      if (!watchedUntil) return;
      extrasChanged = true;
      pump();
    },
    onEnd(e) {
      end = e;
      for (const l of listeners) l.end(e);
      listeners.clear();
      if (watchedUntil) pump();
    },
    watch(from) {
      const now = Date.now();
      // The stored text a reader starts from is a prefix of the text here.
      const at = Math.min(from ?? state.output.length, state.output.length);
      if (now >= watchedUntil) published = at;
      else if (from !== null) published = Math.min(published, at);
      if (from !== null) {
        extrasChanged = true;
        endPublished = false;
      }
      watchedUntil = now + WATCH_LEASE_MS;
      pump();
    },
  };
}
