import { randomUUID } from 'node:crypto';
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AddMessageBody } from '../../../shared/contracts/chat.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AppContext } from '../../context.ts';
import type { Language } from '../../../shared/contracts/common.ts';
import type { MessageSelection } from '../../../shared/contracts/quick-function.ts';
import { AppError } from '../../core/errors.ts';
import type { ChatTurn, UpstreamFileRef } from '../../providers/upstream.ts';
import { DEFAULT_PARAM_BOUNDS, type ChatParams } from '../../../shared/contracts/param-tools.ts';
import { checkParams, effectiveParams, normalizeParams, withChatSystemPrompt } from '../params/param-tools.ts';
import { catalogueEntryOf } from '../catalogue/catalogue.ts';
import { forgetCachedToken, planLevelSql, tokenStillValidSql, type AuthUser } from '../accounts/auth.ts';
import { vipLevelName } from '../catalogue/catalogue.ts';
import { sessionDescribeFrom, sessionTitleFrom } from './sessions.ts';
import { leafOf, MAX_PATH } from './versions.ts';
import { historyFraming, plainFraming, type MessageFraming } from './quick-function.ts';
import { imageOfMedia, loadOwnMedia, videosToSummarise, withAttachments, type AttachedMedia } from '../media/for-model.ts';
import { partsOfVideo, type VideoPartsJob } from './video-parts.ts';
import { CHARS_PER_TOKEN, pageBudgetOf } from './context-budget.ts';
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
  /** The chat's temperature and maximum answer length, clamped to the model's bounds (ParamTools); empty: none sent. */
  sampling: { temperature?: number; maxOutputTokens?: number };
  /**
   * Set for SendResponses: only the model's deployments that speak the Responses API answer, and with
   * `deploymentIds` only those (the deployment that holds the message's uploaded files).
   */
  responses: { deploymentIds: string[] | null } | null;
  /** Milliseconds the statement that charges and stores the message took (Server-Timing). */
  storeMs: number;
  /**
   * Attached video transcripts too long for the model's context: summarised in parts while answering,
   * before the model is asked (chat/video-parts.ts); null for every other message.
   */
  videoParts: VideoPartsJob | null;
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

/** What a follow-up reads of its chat: the history the model is sent, and the exchange the new one follows. */
export type Conversation = { history: HistoryRow[]; parentId: string | null; params: ChatParams | null };

/**
 * The caller's session (null when it is not theirs, or `versionOf` is not one of its exchanges) with
 * the exchange the new one follows (its parent: the chat's current leaf, or with `versionOf` that
 * exchange's parent) and the finished exchanges of that exchange's path (chat/versions.ts), newest
 * first, as far back as `budgetChars` of the text the model is sent (the quick function's rendered
 * text or the input, and the answer), in one round trip. Only the path: another branch of the chat
 * (an earlier version of a turn, the answers after an edited question) never reaches the model.
 * A long chat costs about what the model can read of it, not its whole length: the walk up the path
 * stops once the exchanges' size in bytes, which PostgreSQL knows without reading the text, passes
 * what the budget could hold, and only those are read and counted in characters
 * (bench/README.md#follow-up). Prepared: planned once per connection, about 0.6 ms less a message.
 */
export async function loadConversation(
  ctx: AppContext,
  userId: string,
  sessionId: string,
  budgetChars: number,
  versionOf: string | null = null,
): Promise<Conversation | null> {
  const version = sql`${versionOf}::text`;
  const sent = (length: SQL) => sql`${length}(coalesce(m.prompt_text, m.input_message)) + ${length}(m.output_message)`;
  // An exchange the model is sent: finished, with an answer. Its size in bytes, 0 for the others.
  const bytes = sql`case when m.finish_reason is not null and octet_length(m.output_message) > 0 then ${sent(sql`octet_length`)} else 0 end`;
  const [row] = await ctx.database.runPrepared<{ found: boolean | null; parent_id: string | null; params: ChatParams | string | null; history: HistoryRow[] | string }>(
    sql`
    with recursive chat as (
      select s.id, s.params,
        case when ${version} is null then ${leafOf(sql`s`)}
             else (select v.parent_id from chat_messages v where v.id = ${version} and v.session_id = s.id) end as start,
        (${version} is null or exists (select 1 from chat_messages v where v.id = ${version} and v.session_id = s.id)) as found
      from chat_sessions s where s.id = ${sessionId} and s.user_id = ${userId}
    ),
    walk(id, parent_id, depth, bytes_before, bytes) as (
      select m.id, m.parent_id, 1, 0::bigint, ${bytes} from chat_messages m where m.id = (select chat.start from chat) and m.session_id = ${sessionId}
      union all
      select m.id, m.parent_id, w.depth + 1, w.bytes_before + w.bytes, ${bytes}
      from walk w join chat_messages m on m.id = w.parent_id and m.session_id = ${sessionId}
      where w.bytes_before + w.bytes < ${MAX_BYTES_PER_CHAR * budgetChars} and w.depth < ${MAX_PATH}
    )
    select (select chat.found from chat) as found, (select chat.start from chat) as parent_id, (select chat.params from chat) as params, coalesce((
      select json_agg(json_build_object('input', e.input_message, 'output', e.output_message, 'mediaIds', e.media_ids, 'promptText', e.prompt_text, 'selection', e.selection) order by e.depth)
      from (
        select e.*, sum(e.chars) over (order by e.depth) - e.chars as chars_before
        from (
          select w.depth, m.input_message, m.output_message, m.media_ids, m.prompt_text, m.selection, ${sent(sql`length`)} as chars
          from walk w join chat_messages m on m.id = w.id
          where w.bytes > 0
        ) e
      ) e
      where e.chars_before < ${budgetChars}
    ), '[]'::json) as history`,
    { pooled: true },
  );
  if (!row?.found) return null;
  const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
  return { history: json(row.history), parentId: row.parent_id, params: row.params === null ? null : json(row.params) };
}

/** The history a follow-up in `sessionId` reads (loadConversation), newest first; null when the session is not the caller's. */
export async function loadSession(ctx: AppContext, userId: string, sessionId: string, budgetChars: number): Promise<HistoryRow[] | null> {
  return (await loadConversation(ctx, userId, sessionId, budgetChars))?.history ?? null;
}


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
  const pageBudget = pageBudgetOf(contextWindow);
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

/** What SendResponses adds to a message: the Responses path forced, and the uploaded files it carries. */
export type SendExtras = { responses?: { deploymentIds: string[] | null }; upstreamFiles?: UpstreamFileRef[] };

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
  extras: SendExtras = {},
): Promise<PreparedMessage> {
  const responses = extras.responses ?? null;
  // Web search that is not set up, and plugins that are off, are refused before anything is charged.
  if (body.webSearch) requireSearchProvider(ctx);
  const plugins = body.pluginIds?.length ? await loadMessagePlugins(ctx, body.pluginIds) : [];
  const conversation: Conversation | null = body.chatSessionId
    ? await loadConversation(
        ctx,
        user.id,
        body.chatSessionId,
        Math.min(HISTORY_MAX_CHARS, await historyBudgetChars(ctx, body.aiModelId, CHARS_PER_TOKEN)),
        body.versionOf ?? null,
      )
    : { history: [], parentId: null, params: null };
  if (!conversation) throw new AppError(Codes.NotFound, 'notFound');
  const { history, parentId } = conversation;
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
  const entry = await catalogueEntryOf(ctx, model.aiModelId);
  if (responses && !entry?.deployments.some((d) => d.protocol === 'responses' && (!responses.deploymentIds || responses.deploymentIds.includes(d.id)))) {
    throw new AppError(Codes.BadRequest, 'modelNoResponses', { model: model.name });
  }
  // The chat's parameters: an existing chat's as stored (read with its row), a new chat's as sent
  // (checked against the model's bounds: a clear refusal before anything is charged). Either is
  // clamped to the answering model's bounds, which may have narrowed since they were set.
  const newParams = body.chatSessionId ? null : (body.chatParams ?? null);
  const bounds = entry?.paramBounds ?? DEFAULT_PARAM_BOUNDS;
  if (newParams) checkParams(newParams, bounds);
  const effective = effectiveParams(body.chatSessionId ? conversation.params : newParams, bounds);
  // Read (and scaled down) before anything is charged: a missing image is an ordinary refusal.
  const images = await Promise.all(attachedImages.map((m) => imageOfMedia(ctx, m)));

  const turnsOf = async (withMedia: Map<string, AttachedMedia>) => {
    const turns = buildTurns(history, { text: framing.modelText, mediaIds: body.chatMediaIds, images, parts: framing.parts }, withMedia, model.contextWindow, lang);
    // Files uploaded to the deployment (SendResponses) go with the new input.
    if (extras.upstreamFiles?.length) turns[turns.length - 1] = { ...turns[turns.length - 1], upstreamFiles: extras.upstreamFiles };
    // The user's personalization and remembered facts (cached: no query once read).
    return withChatSystemPrompt(await withPersonalization(ctx, user.id, turns), effective.systemPrompt);
  };
  // Only a message with an attached video too long for the context has parts to summarise (no query: the media are read above).
  const longVideos = attachedChars > pageBudgetOf(model.contextWindow) ? videosToSummarise(body.chatMediaIds.flatMap((id) => media.get(id) ?? []), pageBudgetOf(model.contextWindow)) : [];
  const videoParts: VideoPartsJob | null = longVideos.length
    ? {
        videos: longVideos.map((m) => partsOfVideo(m, model)),
        turnsWith: (summaries) => turnsOf(new Map([...media].map(([id, m]) => [id, summaries.has(id) ? { ...m, partSummaries: summaries.get(id)! } : m]))),
      }
    : null;
  const messageId = randomUUID();
  const sessionId = body.chatSessionId ?? randomUUID();
  const prepared: PreparedMessage = {
    messageId,
    sessionId,
    userId: user.id,
    input: framing.storedInput,
    resolved,
    turns: await turnsOf(media),
    videoParts,
    sampling: {
      ...(effective.temperature !== undefined ? { temperature: effective.temperature } : {}),
      ...(effective.maxOutputTokens !== undefined ? { maxOutputTokens: effective.maxOutputTokens } : {}),
    },
    responses,
    webSearch: !!body.webSearch,
    // The remember tool when asked.
    plugins: await withMemoryTool(ctx, user.id, body.inputMessage, plugins),
    storeMs: 0,
    commit: async () => {
      const started = performance.now();
      try {
        await storeMessage(ctx, { user, tokenHash, body, resolved, messageId, sessionId, parentId, framing, newParams });
      } finally {
        prepared.storeMs = performance.now() - started;
      }
    },
  };
  return prepared;
}

/** The branches of the statement that stores a message: one compiled text for each. */
type StoreShape = { existing: boolean; parent: boolean; token: boolean; charged: boolean; quickFunction: boolean; selection: boolean; params: boolean };

type StoreValues = {
  userId: string;
  sessionId: string;
  messageId: string;
  parentId: string | null;
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
  params: string | null;
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
  // The exchange the message follows (its parent) must still be there: deleted since it was read, the message is refused.
  const parentStillThere = shape.parent ? sql` and exists (select 1 from chat_messages p where p.id = ${v.parentId}::text and p.session_id = ${v.sessionId})` : sql``;
  return sql`
    with gate as (select ${authorized} as ok, ${planLevelSql(v.userId)} as level),
    ${charge},
    s as (${
      shape.existing
        ? sql`update chat_sessions set last_active_at = now(), describe = ${v.describe}, current_leaf_id = ${v.messageId}
              where id = ${v.sessionId} and user_id = ${v.userId} and ${ifCharged}${parentStillThere} returning id`
        : sql`insert into chat_sessions (id, user_id, title, describe, current_leaf_id, params)
              select ${v.sessionId}, ${v.userId}, ${v.title}, ${v.describe}, ${v.messageId}, ${jsonb(shape.params, v.params)} where ${ifCharged} returning id`
    }),
    m as (
      insert into chat_messages (id, session_id, parent_id, user_id, input_message, media_ids, requested_model_id, ai_model_id, model_name, points_cost,
        quick_function, selection, prompt_text, writer_instance_id)
      select ${v.messageId}, s.id, ${shape.parent ? sql`${v.parentId}::text` : sql`null`}, ${v.userId}, ${v.input}, ${v.mediaIds}::jsonb, ${v.requestedId}, ${v.aiModelId}, ${v.modelName}, ${v.cost},
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
    parentId: string | null;
    framing: MessageFraming;
    /** A new chat's parameters (AddMessage chatParams), stored with the session. */
    newParams: ChatParams | null;
  },
): Promise<void> {
  const { user, body, resolved, messageId, sessionId, parentId, framing } = m;
  const { model } = resolved;
  const cost = model.pointsCost;
  const input = framing.storedInput;
  const shape: StoreShape = {
    existing: !!body.chatSessionId,
    parent: !!body.chatSessionId && parentId !== null,
    token: !!m.tokenHash,
    charged: cost > 0,
    quickFunction: framing.quickFunction !== null,
    selection: framing.selection !== null,
    params: !body.chatSessionId && m.newParams !== null,
  };
  const [row] = await ctx.database.runPrepared<{ authorized: boolean; level: number; charged: boolean; message_id: string | null }>(
    storeStatement(shape, {
      userId: user.id,
      sessionId,
      messageId,
      parentId,
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
      params: m.newParams ? JSON.stringify(normalizeParams(m.newParams)) : null,
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
    // The session (or the exchange the message follows) was deleted since it was checked.
    await refundPoints(ctx.db, user.id, cost, { key: `refund:message:${messageId}`, refId: messageId });
    throw new AppError(Codes.NotFound, 'notFound');
  }
  // The message is stored and committed: an invitee's first one earns their inviter points
  // (docs/economy.md#invites), in the background, so it neither delays nor fails the answer. Accounts
  // nobody invited (most) skip it: no query on the hot path.
  if (user.invitedBy) creditInviterLater(ctx, user.id);
}

