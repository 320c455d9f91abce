import { randomUUID } from 'node:crypto';
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AddMessageBody } from '../../../shared/contracts/chat.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AppContext } from '../../context.ts';
import type { Language } from '../../../shared/contracts/common.ts';
import type { MessageSelection } from '../../../shared/contracts/quick-function.ts';
import { AppError } from '../../core/errors.ts';
import type { ChatTurn } from '../../providers/upstream.ts';
import { forgetCachedToken, planLevelSql, tokenStillValidSql, type AuthUser } from '../accounts/auth.ts';
import { vipLevelName } from '../catalogue/catalogue.ts';
import { sessionDescribeFrom, sessionTitleFrom } from './sessions.ts';
import { historyFraming, plainFraming, type MessageFraming } from './quick-function.ts';
import { imageOfMedia, loadOwnMedia, withAttachments, type AttachedMedia } from '../media/for-model.ts';
import { historyBudgetChars, resolveModel, type ResolvedModel } from './model-stream.ts';
import { loadMessagePlugins, type MessagePlugin } from '../plugins/plugins.ts';
import { withMemoryTool, withPersonalization } from '../personalization/personalization.ts';
import { creditInviterLater } from '../points/invites.ts';
import { chargeCtes, refundPoints } from '../points/ledger.ts';
import { instanceIdOf } from '../system/instances.ts';
import { compiledStatement } from '../../db/compiled.ts';
import { requireSearchProvider } from '../search/web-search.ts';

/**
 * The first step of AddMessage: ownership, model gating and the conversation for the model, then
 * (`commit`, run while the upstream is asked) the points charged and the user's message stored
 * (docs/architecture.md#a-message-from-the-side-panel-to-the-model-and-back). Failures here are
 * ordinary envelopes, not streams.
 */

/** Upper bound of history read per message; the model's context window cuts it further. */
const HISTORY_MAX_CHARS = 2_000_000;
/** Characters per token, roughly, to fit history into a context window given in tokens. */
export const CHARS_PER_TOKEN = 3;

export type PreparedMessage = {
  messageId: string;
  sessionId: string;
  userId: string;
  input: string;
  resolved: ResolvedModel;
  turns: ChatTurn[];
  /** Search the web for the input first and give the model the pages as numbered sources. */
  webSearch: boolean;
  /** Function plugins the model may call while answering. */
  plugins: MessagePlugin[];
  /** Milliseconds the statement that charges and stores the message took (Server-Timing). */
  storeMs: number;
  /**
   * Runs the statement that charges the points and stores the session and the message; rejects with
   * the refusal (not enough points, plan, login, session gone) having changed nothing. Call once.
   */
  commit(): Promise<void>;
};

/** promptText and selection: a quick function's rendered text and the attached page text (chat/quick-function.ts). */
type HistoryRow = { input: string; output: string; mediaIds: string[]; promptText?: string | null; selection?: MessageSelection | null };

/** UTF-8 takes at most this many bytes a character: an exchange's size in bytes bounds its length. */
const MAX_BYTES_PER_CHAR = 4;

/**
 * The caller's session (null when it is not theirs) with its latest finished exchanges, newest first,
 * as far back as `budgetChars` of the text the model is sent (the quick function's rendered text or
 * the input, and the answer), in one round trip. A long chat costs about what the model can read of
 * it, not its whole length: the exchanges are first bounded by their size in bytes, which PostgreSQL
 * knows without reading the text, and only those are read and counted in characters
 * (bench/README.md#follow-up). Prepared: planned once per connection, about 0.6 ms less a message.
 */
export async function loadSession(ctx: AppContext, userId: string, sessionId: string, budgetChars: number): Promise<HistoryRow[] | null> {
  const newestFirst = sql`order by e.created_at desc, e.id desc`;
  const sent = (length: SQL) => sql`${length}(coalesce(e.prompt_text, e.input_message)) + ${length}(e.output_message)`;
  const [row] = await ctx.database.runPrepared<{ history: HistoryRow[] | string }>(
    sql`
    select coalesce((
      select json_agg(json_build_object('input', e.input_message, 'output', e.output_message, 'mediaIds', e.media_ids, 'promptText', e.prompt_text, 'selection', e.selection) ${newestFirst})
      from (
        select e.*, sum(e.chars) over (${newestFirst}) - e.chars as chars_before
        from (
          select e.*, ${sent(sql`length`)} as chars
          from (
            select e.id, e.created_at, e.input_message, e.output_message, e.media_ids, e.prompt_text, e.selection,
              sum(${sent(sql`octet_length`)}) over (${newestFirst}) - (${sent(sql`octet_length`)}) as bytes_before
            from chat_messages e
            where e.session_id = s.id and e.finish_reason is not null and e.output_message <> ''
          ) e
          where e.bytes_before < ${MAX_BYTES_PER_CHAR * budgetChars}
        ) e
      ) e
      where e.chars_before < ${budgetChars}
    ), '[]'::json) as history
    from chat_sessions s where s.id = ${sessionId} and s.user_id = ${userId}`,
    { pooled: true },
  );
  if (!row) return null;
  return typeof row.history === 'string' ? (JSON.parse(row.history) as HistoryRow[]) : row.history;
}

/** Of the model's context, the share attached pages and files may take in one message. */
const PAGE_SHARE_OF_CONTEXT = 0.6;

/**
 * The newest exchanges that fit the model's context (roughly), oldest first, then the new input; each
 * user message with the pages and files attached to it (the caller's own, from `media`). The new
 * input carries its images; earlier messages name theirs in a note (they are not sent again).
 */
function buildTurns(
  history: HistoryRow[],
  input: { text: string; mediaIds: string[]; images: NonNullable<ChatTurn['images']>; parts?: string[] },
  media: Map<string, AttachedMedia>,
  contextWindow: number,
  lang: Language = 'en',
): ChatTurn[] {
  const contextChars = contextWindow * CHARS_PER_TOKEN;
  const pageBudget = Math.floor(contextChars * PAGE_SHARE_OF_CONTEXT);
  const userContent = (text: string, ids: string[], imageNotes: boolean) =>
    withAttachments(
      text,
      ids.flatMap((id) => media.get(id) ?? []),
      pageBudget,
      { imageNotes },
    );
  const partsOf = (parts: string[] | undefined) => (parts?.length ? { parts } : {});
  const partsLength = (parts: string[] | undefined) => (parts ?? []).reduce((n, p) => n + p.length, 0);
  const content = userContent(input.text, input.mediaIds, false);
  let budget = contextChars - content.length - partsLength(input.parts);
  const turns: ChatTurn[] = [{ role: 'user', content, ...(input.images.length ? { images: input.images } : {}), ...partsOf(input.parts) }];
  for (const h of history) {
    const framed = historyFraming(h, lang);
    const asked = userContent(framed.text, h.mediaIds ?? [], true);
    budget -= asked.length + partsLength(framed.parts) + h.output.length;
    if (budget < 0) break;
    turns.unshift({ role: 'user', content: asked, ...partsOf(framed.parts) }, { role: 'assistant', content: h.output });
  }
  return turns;
}

/**
 * Everything the upstream call needs: ownership, model gating, the conversation. Nothing is stored
 * or charged until `commit`. With the login cache warm this asks the database nothing for a new
 * chat without attachments. `tokenHash` (the caller's token) lets the statement check the login again.
 */
export async function prepareChatMessage(
  ctx: AppContext,
  user: AuthUser,
  body: AddMessageBody,
  tokenHash: string | null = null,
  // A quick function's rendered text and a page selection (chat/quick-function.ts frameMessage).
  framing: MessageFraming = plainFraming(body),
  lang: Language = 'en',
): Promise<PreparedMessage> {
  // Web search that is not set up, and plugins that are off, are refused before anything is charged.
  if (body.webSearch) requireSearchProvider(ctx);
  const plugins = body.pluginIds?.length ? await loadMessagePlugins(ctx, body.pluginIds) : [];
  const history = body.chatSessionId
    ? await loadSession(ctx, user.id, body.chatSessionId, Math.min(HISTORY_MAX_CHARS, await historyBudgetChars(ctx, body.aiModelId, CHARS_PER_TOKEN)))
    : [];
  if (!history) throw new AppError(Codes.NotFound, 'notFound');
  // Attached media must be the caller's own; the history's are looked up in the same query.
  const media = await loadOwnMedia(ctx, user.id, [...body.chatMediaIds, ...history.flatMap((h) => h.mediaIds ?? [])]);
  if (body.chatMediaIds.some((id) => !media.has(id))) throw new AppError(Codes.NotFound, 'notFound');
  const attachedChars = body.chatMediaIds.reduce((n, id) => n + (media.get(id)?.contentText.length ?? 0), 0);
  const framedChars = framing.modelText.length + framing.parts.reduce((n, p) => n + p.length, 0);
  const conversationChars = history.reduce((n, h) => n + h.input.length + h.output.length, framedChars + attachedChars);
  // Attached images need a vision model: 'auto' picks one, and a model that cannot see refuses (modelNoImages).
  const attachedImages = body.chatMediaIds.flatMap((id) => (media.get(id)?.mediaType === 'image' ? [media.get(id)!] : []));
  const hasImages = attachedImages.length > 0;
  const resolved = await resolveModel(ctx, { user, aiModelId: body.aiModelId, hasImages, conversationChars, webSearch: !!body.webSearch });
  const { model } = resolved;
  // Read (and scaled down) before anything is charged: a missing image is an ordinary refusal.
  const images = await Promise.all(attachedImages.map((m) => imageOfMedia(ctx, m)));

  const messageId = randomUUID();
  const sessionId = body.chatSessionId ?? randomUUID();
  const prepared: PreparedMessage = {
    messageId,
    sessionId,
    userId: user.id,
    input: framing.storedInput,
    resolved,
    // The user's personalization and remembered facts (cached: no query once read), and the remember tool when asked.
    turns: await withPersonalization(ctx, user.id, buildTurns(history, { text: framing.modelText, mediaIds: body.chatMediaIds, images, parts: framing.parts }, media, model.contextWindow, lang)),
    webSearch: !!body.webSearch,
    plugins: await withMemoryTool(ctx, user.id, body.inputMessage, plugins),
    storeMs: 0,
    commit: async () => {
      const started = performance.now();
      try {
        await storeMessage(ctx, { user, tokenHash, body, resolved, messageId, sessionId, framing });
      } finally {
        prepared.storeMs = performance.now() - started;
      }
    },
  };
  return prepared;
}

/** The branches of the statement that stores a message: one compiled text for each. */
type StoreShape = { existing: boolean; token: boolean; charged: boolean; quickFunction: boolean; selection: boolean };

type StoreValues = {
  userId: string;
  sessionId: string;
  messageId: string;
  entryId: string;
  kind: 'message';
  key: string;
  tokenHash: string | null;
  cost: number;
  dailyAllowance: number;
  minVipLevel: number;
  input: string;
  describe: string;
  title: string;
  mediaIds: string;
  requestedId: string;
  aiModelId: string;
  modelName: string;
  quickFunction: string | null;
  selection: string | null;
  promptText: string | null;
  instanceId: number | null;
};

/**
 * The one statement (one round trip, one commit) that charges the points, creates or touches the
 * session and stores the user's message. It runs while the upstream is already being asked
 * (chat/stream.ts), so it also checks again what the login cache said: the token is still valid and
 * the plan still allows the model. Compiled once per shape (db/compiled.ts), and prepared: parsed
 * and planned once per connection.
 */
const storeStatement = compiledStatement<StoreShape, StoreValues>((shape, v) => {
  const ifCharged = sql`exists (select 1 from charged)`;
  const authorized = shape.token ? tokenStillValidSql(v.tokenHash, v.userId) : sql`true`;
  const gate = sql`(select ok from gate) and (select level from gate) >= ${v.minVipLevel}`;
  const jsonb = (present: boolean, value: Placeholder) => (present ? sql`${value}::jsonb` : sql`null`);
  const charge = chargeCtes(v.userId, shape.charged ? v.cost : 0, v.dailyAllowance, { kind: v.kind, key: v.key, refId: v.messageId, entryId: v.entryId }, gate);
  return sql`
    with gate as (select ${authorized} as ok, ${planLevelSql(v.userId)} as level),
    ${charge},
    s as (${
      shape.existing
        ? sql`update chat_sessions set last_active_at = now(), describe = ${v.describe}
              where id = ${v.sessionId} and user_id = ${v.userId} and ${ifCharged} returning id`
        : sql`insert into chat_sessions (id, user_id, title, describe)
              select ${v.sessionId}, ${v.userId}, ${v.title}, ${v.describe} where ${ifCharged} returning id`
    }),
    m as (
      insert into chat_messages (id, session_id, user_id, input_message, media_ids, requested_model_id, ai_model_id, model_name, points_cost,
        quick_function, selection, prompt_text, writer_instance_id)
      select ${v.messageId}, s.id, ${v.userId}, ${v.input}, ${v.mediaIds}::jsonb, ${v.requestedId}, ${v.aiModelId}, ${v.modelName}, ${v.cost},
        ${jsonb(shape.quickFunction, v.quickFunction)}, ${jsonb(shape.selection, v.selection)}, ${v.promptText}, ${v.instanceId}::integer
      from s returning id
    )
    select (select ok from gate) as authorized, (select level from gate) as level, ${ifCharged} as charged, (select id from m) as message_id`;
});

/** Throws the refusal's AppError; nothing is charged then. */
async function storeMessage(
  ctx: AppContext,
  m: {
    user: AuthUser;
    tokenHash: string | null;
    body: AddMessageBody;
    resolved: ResolvedModel;
    messageId: string;
    sessionId: string;
    framing: MessageFraming;
  },
): Promise<void> {
  const { user, body, resolved, messageId, sessionId, framing } = m;
  const { model } = resolved;
  const cost = model.pointsCost;
  const input = framing.storedInput;
  const shape: StoreShape = {
    existing: !!body.chatSessionId,
    token: !!m.tokenHash,
    charged: cost > 0,
    quickFunction: framing.quickFunction !== null,
    selection: framing.selection !== null,
  };
  const [row] = await ctx.database.runPrepared<{ authorized: boolean; level: number; charged: boolean; message_id: string | null }>(
    storeStatement(shape, {
      userId: user.id,
      sessionId,
      messageId,
      entryId: randomUUID(),
      kind: 'message',
      key: `message:${messageId}`,
      tokenHash: m.tokenHash,
      cost,
      dailyAllowance: ctx.config.FREE_DAILY_POINTS,
      minVipLevel: model.minVipLevel,
      input,
      describe: sessionDescribeFrom(framing.titleText),
      title: sessionTitleFrom(framing.titleText),
      mediaIds: JSON.stringify(body.chatMediaIds),
      requestedId: resolved.requestedId,
      aiModelId: model.aiModelId,
      modelName: model.name,
      quickFunction: framing.quickFunction === null ? null : JSON.stringify(framing.quickFunction),
      selection: framing.selection === null ? null : JSON.stringify(framing.selection),
      promptText: framing.promptText,
      instanceId: instanceIdOf(ctx),
    }),
  );
  const { authorized: ok, level, charged, message_id: inserted } = row!;
  if (!ok || Number(level) < model.minVipLevel) {
    // The login cache was out of date: the next message asks the database.
    if (m.tokenHash) forgetCachedToken(ctx, m.tokenHash);
    if (!ok) throw new AppError(Codes.NotLoggedIn, 'notLoggedIn');
    throw new AppError(Codes.PlanRequired, 'planRequired', { model: model.name, plan: vipLevelName(model.minVipLevel) });
  }
  // A plan bought since the login was cached: the next message (its 'auto' pick) sees it.
  if (m.tokenHash && Number(level) !== user.vipLevel) forgetCachedToken(ctx, m.tokenHash);
  if (!charged) throw new AppError(Codes.NotEnoughPoints, 'notEnoughPoints');
  if (!inserted) {
    // The session was deleted since it was checked.
    await refundPoints(ctx.db, user.id, cost, { key: `refund:message:${messageId}`, refId: messageId });
    throw new AppError(Codes.NotFound, 'notFound');
  }
  // The message is stored and committed: an invitee's first one earns their inviter points
  // (docs/economy.md#invites), in the background, so it neither delays nor fails the answer. Accounts
  // nobody invited (most) skip it: no query on the hot path.
  if (user.invitedBy) creditInviterLater(ctx, user.id);
}

