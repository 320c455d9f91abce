import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { ChatCitation, ChatToolCall } from '../../../shared/contracts/chat.ts';
import type { AppContext } from '../../context.ts';
import { compiledStatement } from '../../db/compiled.ts';
import { chatMessages } from '../../db/schema/chat.ts';
import { upstreamFailures } from '../../db/schema/usage.ts';
import { instanceIdOf } from '../system/instances.ts';
import { refundPoints, settleTokenCharge } from '../points/ledger.ts';
import { noteSearchIndexWrites } from './search-index-upkeep.ts';
import type { AnswerMetering } from './token-metering.ts';

/**
 * Keeps an answer's row in step with its stream: text reaches the database in batches as it
 * streams, sources and tool calls whenever they change, and the outcome at the end, so a crash or a
 * stop loses nothing already shown.
 *
 * Streamed text is written per instance, not per answer: one timer gathers what every answer of
 * this instance streamed since the last tick and appends it with one statement (bench/README.md,
 * soak: 1,000 open answers cost two statements a second, not a thousand). One batch is in flight at a
 * time, so each answer's pieces are appended in order. An answer's own writes (sources, tool calls,
 * the end) run one after the other; the end waits for a batch in flight and then stores the whole
 * text, so nothing pending is lost and nothing is appended twice.
 *
 * Ends are gathered per instance too (storeEnd): the ends of answers that finish in the same turn of
 * the event loop, or while the last batch of ends was being written, are stored by one prepared
 * statement (bench/README.md, load: each round trip to the database holds a pooled connection for
 * about a turn of a busy event loop, so one round trip per answer's end queued the next chat starts
 * behind it).
 */

/** Streamed text reaches the database at least this often, or sooner when this much is pending. */
const FLUSH_MS = 500;
export const FLUSH_BYTES = 4096;
/** A running stream touches its row this often, so recovery can tell it from a dead one. */
const HEARTBEAT_MS = 30_000;
/** Rows per statement of a batch (two array parameters whatever the count). */
const BATCH_ROWS = 2000;

/** A high surrogate at the end would be stored as U+FFFD, breaking the emoji its next chunk completes. */
const endsInsidePair = (text: string) => {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff;
};

/** One streaming answer, as the instance's batches see it. */
type Streaming = { id: string; pending: string; lastWrite: number; ready: boolean };

type Batcher = {
  streams: Set<Streaming>;
  timer: NodeJS.Timeout | null;
  /** The batch being written (settled when none is). */
  inFlight: Promise<void>;
  busy: boolean;
  /** A stream passed FLUSH_BYTES while a batch was in flight: write again as soon as it ends. */
  again: boolean;
};

const batchers = new WeakMap<AppContext, Batcher>();

function batcherOf(ctx: AppContext): Batcher {
  let b = batchers.get(ctx);
  if (!b) batchers.set(ctx, (b = { streams: new Set(), timer: null, inFlight: Promise.resolve(), busy: false, again: false }));
  return b;
}

/** Takes what each ready stream has pending (and the heartbeats due) and appends it, one statement per BATCH_ROWS. */
function writeBatch(ctx: AppContext, b: Batcher): void {
  if (b.busy) {
    b.again = true;
    return;
  }
  const now = Date.now();
  const ids: string[] = [];
  const pieces: string[] = [];
  for (const st of b.streams) {
    if (!st.ready || (!st.pending && now - st.lastWrite < HEARTBEAT_MS)) continue;
    const keep = endsInsidePair(st.pending) ? 1 : 0;
    ids.push(st.id);
    pieces.push(st.pending.slice(0, st.pending.length - keep));
    st.pending = st.pending.slice(st.pending.length - keep);
    st.lastWrite = now;
  }
  if (ids.length === 0) return;
  // Each batch also names this instance as the writer: recovery after a crash ends an unfinished
  // answer only when its writer is gone (instances.ts). Null on PGlite, where nothing else writes.
  const writer = instanceIdOf(ctx);
  b.busy = true;
  b.inFlight = (async () => {
    try {
      for (let from = 0; from < ids.length; from += BATCH_ROWS) {
        const batch = appendStatement({}, { ids: ids.slice(from, from + BATCH_ROWS), pieces: pieces.slice(from, from + BATCH_ROWS), writer });
        // Through the pool: a batch of many rows would hold up the chat starts on a pipelined connection.
        await ctx.database.runPrepared(batch, { pooled: true });
      }
    } catch (err) {
      ctx.log.error({ err, answers: ids.length }, 'storing streamed text failed');
    } finally {
      b.busy = false;
      if (b.again) {
        b.again = false;
        writeBatch(ctx, b);
      }
    }
  })();
}

/** Appends each answer's piece: two arrays whatever the count, so one text, compiled once (db/compiled.ts) and planned once per connection. */
const appendStatement = compiledStatement<Record<string, never>, { ids: string[]; pieces: string[]; writer: number | null }>(
  (_, v) => sql`
    update ${chatMessages} m set output_message = m.output_message || v.piece, updated_at = now(),
      writer_instance_id = coalesce(${v.writer}::integer, m.writer_instance_id)
    from unnest(${v.ids}::text[], ${v.pieces}::text[]) as v(id, piece)
    where m.id = v.id`,
);

function join(ctx: AppContext, st: Streaming): Batcher {
  const b = batcherOf(ctx);
  b.streams.add(st);
  if (!b.timer) {
    b.timer = setInterval(() => writeBatch(ctx, b), FLUSH_MS);
    b.timer.unref();
  }
  return b;
}

function leave(b: Batcher, st: Streaming): void {
  b.streams.delete(st);
  if (b.streams.size === 0 && b.timer) {
    clearInterval(b.timer);
    b.timer = null;
  }
}

/** An answer's end waiting for its instance's next batch of ends; `done` is told whether it was stored. */
type PendingEnd = { id: string; o: AnswerOutcome; done: (stored: boolean) => void };
type EndBatcher = { queue: PendingEnd[]; running: boolean };

const endBatchers = new WeakMap<AppContext, EndBatcher>();

/**
 * Stores an answer's outcome (its text, finish reason, model and tokens; not sources or tool calls)
 * with the other ends of this instance that are waiting. Resolves false when it could not be stored
 * (logged): a batch that fails is retried answer by answer, so one bad row loses nothing of the others.
 */
function storeEnd(ctx: AppContext, id: string, o: AnswerOutcome): Promise<boolean> {
  const batcher = endBatcherOf(ctx);
  return new Promise((done) => {
    batcher.queue.push({ id, o, done });
    if (batcher.running) return;
    batcher.running = true;
    // The ends of this turn of the event loop go together.
    setImmediate(() => void writeEnds(ctx, batcher));
  });
}

function endBatcherOf(ctx: AppContext): EndBatcher {
  let b = endBatchers.get(ctx);
  if (!b) endBatchers.set(ctx, (b = { queue: [], running: false }));
  return b;
}

/** One answer's outcome stored on its own; false when it could not be (logged). */
function storeOutcome(ctx: AppContext, id: string, o: AnswerOutcome): Promise<boolean> {
  return ctx.db
    .update(chatMessages)
    .set(outcomeValues(o))
    .where(eq(chatMessages.id, id))
    .then(
      () => true,
      (err: unknown) => (ctx.log.error({ err, messageId: id }, 'storing the end of a stream failed'), false),
    );
}

async function writeEnds(ctx: AppContext, b: EndBatcher): Promise<void> {
  while (b.queue.length) {
    const batch = b.queue.splice(0, BATCH_ROWS);
    let stored = batch.map(() => true);
    try {
      await ctx.database.runPrepared(boundEnds(batch));
    } catch (err) {
      ctx.log.warn({ err, answers: batch.length }, 'storing a batch of answer ends failed; storing them one by one');
      stored = await Promise.all(batch.map(({ id, o }) => storeOutcome(ctx, id, o)));
    }
    batch.forEach((end, i) => end.done(stored[i]));
  }
  b.running = false;
}

/** The columns of a batch of ends, one array each (null where no deployment metered the answer). */
type EndColumns = {
  ids: string[];
  outputs: string[];
  finishReasons: string[];
  errors: (string | null)[];
  aiModelIds: string[];
  modelNames: string[];
  deploymentIds: (string | null)[];
  inputTokens: (number | null)[];
  outputTokens: (number | null)[];
  estimated: (boolean | null)[];
  firstTokenMs: (number | null)[];
};

/** One statement for a batch of ends: its text is the same whatever the batch, so it is compiled once and planned once per connection. */
const endsStatement = compiledStatement<Record<string, never>, EndColumns>((_, v) => {
  // Metering columns are left as they are when no deployment answered (nothing was metered).
  const metered = (name: string) => sql.raw(`case when v.deployment_id is null then m.${name} else v.${name} end`);
  return sql`
    update ${chatMessages} m set output_message = v.output_message, finish_reason = v.finish_reason, error_message = v.error_message,
      ai_model_id = v.ai_model_id, model_name = v.model_name, updated_at = now(), finished_at = now(),
      deployment_id = coalesce(v.deployment_id, m.deployment_id), input_tokens = ${metered('input_tokens')},
      output_tokens = ${metered('output_tokens')}, tokens_estimated = ${metered('tokens_estimated')}, first_token_ms = ${metered('first_token_ms')}
    from unnest(${v.ids}::text[], ${v.outputs}::text[], ${v.finishReasons}::text[], ${v.errors}::text[], ${v.aiModelIds}::text[],
      ${v.modelNames}::text[], ${v.deploymentIds}::text[], ${v.inputTokens}::integer[], ${v.outputTokens}::integer[],
      ${v.estimated}::boolean[], ${v.firstTokenMs}::integer[])
      as v(id, output_message, finish_reason, error_message, ai_model_id, model_name, deployment_id, input_tokens, output_tokens, tokens_estimated, first_token_ms)
    where m.id = v.id`;
});

/** The batch's ends as the statement's columns. */
function boundEnds(batch: PendingEnd[]) {
  const column = <T>(value: (o: AnswerOutcome, m: AnswerMetering | null) => T) => batch.map(({ o }) => value(o, o.metering?.deploymentId ? o.metering : null));
  return endsStatement(
    {},
    {
      ids: batch.map((e) => e.id),
      outputs: column((o) => o.output),
      finishReasons: column((o) => o.finishReason),
      errors: column((o) => o.errorDetail),
      aiModelIds: column((o) => o.aiModelId),
      modelNames: column((o) => o.modelName),
      deploymentIds: column((_, m) => m?.deploymentId ?? null),
      inputTokens: column((_, m) => m?.inputTokens ?? null),
      outputTokens: column((_, m) => m?.outputTokens ?? null),
      estimated: column((_, m) => m?.estimated ?? null),
      firstTokenMs: column((_, m) => m?.firstTokenMs ?? null),
    },
  );
}

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
  /** A token-priced answer's hold is settled against what its tokens cost (ledger.ts settleTokenCharge). */
  settle: { userId: string; cost: number } | null;
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
  const st: Streaming = { id: messageId, pending: '', lastWrite: Date.now(), ready: false };
  const batcher = join(ctx, st);
  // A refused message has no row: nothing queued for it is written.
  let dropped = false;
  let writes = stored.then(
    () => void (st.ready = true),
    () => {
      dropped = true;
      leave(batcher, st);
    },
  );
  const enqueue = (what: string, write: () => Promise<unknown>) => {
    writes = writes.then(() => (dropped ? undefined : write())).then(
      () => {},
      (err: unknown) => ctx.log.error({ err, messageId }, `storing ${what} failed`),
    );
  };

  return {
    append(text) {
      st.pending += text;
      if (st.pending.length >= FLUSH_BYTES && st.ready) writeBatch(ctx, batcher);
    },
    saveExtras(citations, toolCalls) {
      const values = { citations: [...citations], toolCalls: [...toolCalls] };
      enqueue('citations or tool calls', () => db.update(chatMessages).set(values).where(eq(chatMessages.id, messageId)));
    },
    async finish(o) {
      // Out of the batches; a batch already holding some of its text ends before the whole text is stored.
      leave(batcher, st);
      st.pending = '';
      try {
        await writes;
        await batcher.inFlight;
        if (dropped) return;
        // Sources and tool calls (jsonb, and the tools' points) are rarer: those ends are stored on their own.
        const alone = o.citations.length > 0 || o.toolCalls.length > 0;
        if (!(await (alone ? storeOutcome : storeEnd)(ctx, messageId, o))) return;
        noteSearchIndexWrites(ctx);
        // Failed attempts are rare: an insert only when there were some, after the answer is stored.
        const failures = o.metering?.failures ?? [];
        if (failures.length) await db.insert(upstreamFailures).values(failures.map((f) => ({ id: randomUUID(), messageId, ...f })));
        if (o.refund) await refundPoints(db, o.refund.userId, o.refund.points, { key: `refund:message:${messageId}`, refId: messageId });
        else if (o.settle) await settle(ctx, messageId, o.settle, o.metering);
      } catch (err) {
        ctx.log.error({ err, messageId }, 'storing the end of a stream failed');
      }
    },
    discard() {
      dropped = true;
      leave(batcher, st);
      st.pending = '';
    },
  };
}

async function settle(ctx: AppContext, messageId: string, s: { userId: string; cost: number }, m: AnswerMetering | undefined): Promise<void> {
  // The note is the operator's and the user's record of what was priced; numbers only, so it reads in any language.
  const note = m ? `${m.inputTokens} + ${m.outputTokens} tokens${m.estimated ? ' ~' : ''}` : '';
  await settleTokenCharge(ctx.db, { userId: s.userId, messageId, cost: s.cost, dailyAllowance: ctx.config.FREE_DAILY_POINTS, note });
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
