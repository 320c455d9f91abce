import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { ChatCitation, ChatToolCall } from '../../shared/contracts/chat.ts';
import type { AppContext } from '../context.ts';
import { chatMessages } from '../db/schema/chat.ts';
import { upstreamFailures } from '../db/schema/usage.ts';
import { instanceIdOf } from './instances.ts';
import { refundPoints } from './ledger.ts';
import type { AnswerMetering } from './token-metering.ts';

/**
 * Keeps an answer's row in step with its stream: text reaches the database in batches as it
 * streams, sources and tool calls whenever they change, and the outcome at the end, so a crash or a
 * stop loses nothing already shown. Writes run one after the other, in order.
 */

/** Streamed text reaches the database at least this often, or sooner when this much is pending. */
const FLUSH_MS = 500;
export const FLUSH_BYTES = 4096;
/** A running stream touches its row this often, so recovery can tell it from a dead one. */
const HEARTBEAT_MS = 30_000;

/** A high surrogate at the end would be stored as U+FFFD, breaking the emoji its next chunk completes. */
const endsInsidePair = (text: string) => {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff;
};

export type AnswerOutcome = {
  output: string;
  finishReason: string;
  /** For the log and the row only; never shown to users. */
  errorDetail: string | null;
  aiModelId: string;
  modelName: string;
  citations: ChatCitation[];
  toolCalls: ChatToolCall[];
  /** The message's own cost plus its tool calls', when tools ran. */
  pointsCost: number;
  /** The message failed before any text: its points go back. */
  refund: { userId: string; points: number } | null;
  /** Tokens, deployment and failed attempts (token-metering.ts); absent leaves the columns null. */
  metering?: AnswerMetering;
};

export type AnswerStore = {
  /** Text shown to the user; stored within FLUSH_MS, or at once past FLUSH_BYTES pending. */
  append(text: string): void;
  saveExtras(citations: ChatCitation[], toolCalls: ChatToolCall[]): void;
  /** Stops the timer, waits for pending writes and stores the outcome. Never throws (logs instead). */
  finish(outcome: AnswerOutcome): Promise<void>;
  /** The message was never stored (its statement refused it): stops the timer, writes nothing. */
  discard(): void;
};

/**
 * `stored` settles when the message's row exists (the statement that stores it runs while the
 * answer already streams in): no write is made before it.
 */
export function createAnswerStore(ctx: AppContext, messageId: string, stored: Promise<unknown> = Promise.resolve()): AnswerStore {
  const db = ctx.db;
  const rowOf = eq(chatMessages.id, messageId);
  // Each batch also names this instance as the writer: recovery after a crash ends an unfinished
  // answer only when its writer is gone (instances.ts). Null on PGlite, where nothing else writes.
  const writerInstanceId = instanceIdOf(ctx);
  const writer = writerInstanceId === null ? {} : { writerInstanceId };
  let pending = '';
  let lastWrite = Date.now();
  // A refused message has no row: nothing queued for it is written.
  let dropped = false;
  let writes = stored.then(
    () => {},
    () => void (dropped = true),
  );
  const enqueue = (what: string, write: () => Promise<unknown>) => {
    writes = writes.then(() => (dropped ? undefined : write())).then(
      () => {},
      (err: unknown) => ctx.log.error({ err, messageId }, `storing ${what} failed`),
    );
  };
  const flush = () => {
    const keep = endsInsidePair(pending) ? 1 : 0;
    const piece = pending.slice(0, pending.length - keep);
    pending = pending.slice(pending.length - keep);
    lastWrite = Date.now();
    enqueue('streamed text', () =>
      db.update(chatMessages).set({ outputMessage: sql`${chatMessages.outputMessage} || ${piece}`, updatedAt: sql`now()`, ...writer }).where(rowOf),
    );
  };
  const timer = setInterval(() => {
    if (pending || Date.now() - lastWrite >= HEARTBEAT_MS) flush();
  }, FLUSH_MS);

  return {
    append(text) {
      pending += text;
      if (pending.length >= FLUSH_BYTES) flush();
    },
    saveExtras(citations, toolCalls) {
      const values = { citations: [...citations], toolCalls: [...toolCalls] };
      enqueue('citations or tool calls', () => db.update(chatMessages).set(values).where(rowOf));
    },
    async finish(o) {
      clearInterval(timer);
      try {
        await writes;
        await db.update(chatMessages).set(outcomeValues(o)).where(rowOf);
        // Failed attempts are rare: an insert only when there were some, after the answer is stored.
        const failures = o.metering?.failures ?? [];
        if (failures.length) await db.insert(upstreamFailures).values(failures.map((f) => ({ id: randomUUID(), messageId, ...f })));
        if (o.refund) await refundPoints(db, o.refund.userId, o.refund.points, { key: `refund:message:${messageId}`, refId: messageId });
      } catch (err) {
        ctx.log.error({ err, messageId }, 'storing the end of a stream failed');
      }
    },
    discard() {
      clearInterval(timer);
      dropped = true;
      pending = '';
    },
  };
}

function outcomeValues(o: AnswerOutcome) {
  return {
    outputMessage: o.output,
    finishReason: o.finishReason,
    errorMessage: o.errorDetail,
    aiModelId: o.aiModelId,
    modelName: o.modelName,
    updatedAt: sql`now()`,
    finishedAt: sql`now()`,
    ...meteringValues(o.metering),
    ...(o.citations.length ? { citations: o.citations } : {}),
    ...(o.toolCalls.length
      ? {
          // A call cut short by a stop did not finish.
          toolCalls: o.toolCalls.map((c) => (c.status === 'running' ? { ...c, status: 'error' as const, output: o.finishReason } : c)),
          pointsCost: o.pointsCost,
        }
      : {}),
  };
}

/** Token columns of the answer: none when no deployment answered (nothing was metered). */
function meteringValues(m: AnswerMetering | undefined) {
  if (!m?.deploymentId) return {};
  return {
    deploymentId: m.deploymentId,
    inputTokens: m.inputTokens,
    outputTokens: m.outputTokens,
    tokensEstimated: m.estimated,
    firstTokenMs: m.firstTokenMs,
  };
}
