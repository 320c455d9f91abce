import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { AddMessageBody } from '../../shared/contracts/chat.ts';
import { Codes } from '../../shared/contracts/envelope.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import type { ChatTurn } from '../providers/upstream.ts';
import type { AuthUser } from './auth.ts';
import { sessionDescribeFrom, sessionTitleFrom } from './chat-sessions.ts';
import { imageOfMedia, loadOwnMedia, withAttachments, type AttachedMedia } from './media-for-model.ts';
import { resolveModel, type ResolvedModel } from './model-stream.ts';
import { loadMessagePlugins, type MessagePlugin } from './plugins.ts';
import { creditInviterLater } from './invites.ts';
import { chargeCtes, refundPoints } from './ledger.ts';
import { requireSearchProvider } from './web-search.ts';

/**
 * The first step of AddMessage, before any upstream call: ownership, model gating, points, and the
 * user's message stored (docs/architecture.md#a-message-from-the-side-panel-to-the-model-and-back).
 * Failures here are ordinary envelopes, not streams.
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
};

type HistoryRow = { input: string; output: string; mediaIds: string[] };

/**
 * The caller's session (null when it is not theirs) with its latest finished exchanges, newest first,
 * in one round trip.
 */
async function loadSession(ctx: AppContext, userId: string, sessionId: string): Promise<HistoryRow[] | null> {
  const result = await ctx.db.execute<{ history: HistoryRow[] | string }>(sql`
    select coalesce((
      select json_agg(json_build_object('input', h.input_message, 'output', h.output_message, 'mediaIds', h.media_ids) order by h.created_at desc, h.id desc)
      from (
        select m.id, m.created_at, m.input_message, m.output_message, m.media_ids,
          sum(length(m.input_message) + length(m.output_message)) over (order by m.created_at desc, m.id desc) as running
        from chat_messages m
        where m.session_id = s.id and m.finish_reason is not null and m.output_message <> ''
      ) h
      where h.running - length(h.input_message) - length(h.output_message) < ${HISTORY_MAX_CHARS}
    ), '[]'::json) as history
    from chat_sessions s where s.id = ${sessionId} and s.user_id = ${userId}`);
  const row = result.rows[0];
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
  input: { text: string; mediaIds: string[]; images: NonNullable<ChatTurn['images']> },
  media: Map<string, AttachedMedia>,
  contextWindow: number,
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
  const content = userContent(input.text, input.mediaIds, false);
  let budget = contextChars - content.length;
  const turns: ChatTurn[] = [{ role: 'user', content, ...(input.images.length ? { images: input.images } : {}) }];
  for (const h of history) {
    const asked = userContent(h.input, h.mediaIds ?? [], true);
    budget -= asked.length + h.output.length;
    if (budget < 0) break;
    turns.unshift({ role: 'user', content: asked }, { role: 'assistant', content: h.output });
  }
  return turns;
}

/**
 * Everything before the upstream call: ownership, model gating, points, and the stored message.
 * Failures here are ordinary envelopes, not streams.
 */
export async function prepareChatMessage(ctx: AppContext, user: AuthUser, body: AddMessageBody): Promise<PreparedMessage> {
  // Web search that is not set up, and plugins that are off, are refused before anything is charged.
  if (body.webSearch) requireSearchProvider(ctx);
  const plugins = body.pluginIds?.length ? await loadMessagePlugins(ctx, body.pluginIds) : [];
  const history = body.chatSessionId ? await loadSession(ctx, user.id, body.chatSessionId) : [];
  if (!history) throw new AppError(Codes.NotFound, 'notFound');
  // Attached media must be the caller's own; the history's are looked up in the same query.
  const media = await loadOwnMedia(ctx, user.id, [...body.chatMediaIds, ...history.flatMap((h) => h.mediaIds ?? [])]);
  if (body.chatMediaIds.some((id) => !media.has(id))) throw new AppError(Codes.NotFound, 'notFound');
  const attachedChars = body.chatMediaIds.reduce((n, id) => n + (media.get(id)?.contentText.length ?? 0), 0);
  const conversationChars = history.reduce((n, h) => n + h.input.length + h.output.length, body.inputMessage.length + attachedChars);
  // Attached images need a vision model: 'auto' picks one, and a model that cannot see refuses (modelNoImages).
  const attachedImages = body.chatMediaIds.flatMap((id) => (media.get(id)?.mediaType === 'image' ? [media.get(id)!] : []));
  const hasImages = attachedImages.length > 0;
  const resolved = await resolveModel(ctx, { user, aiModelId: body.aiModelId, hasImages, conversationChars, webSearch: !!body.webSearch });
  const { model } = resolved;
  // Read (and scaled down) before anything is charged: a missing image is an ordinary refusal.
  const images = await Promise.all(attachedImages.map((m) => imageOfMedia(ctx, m)));

  const messageId = randomUUID();
  const cost = model.pointsCost;
  const sessionId = body.chatSessionId ?? randomUUID();
  const describe = sessionDescribeFrom(body.inputMessage);
  const messageValues = sql`${messageId}, s.id, ${user.id}, ${body.inputMessage}, ${JSON.stringify(body.chatMediaIds)}::jsonb,
    ${resolved.requestedId}, ${model.aiModelId}, ${model.name}, ${cost}`;
  const ifCharged = sql`exists (select 1 from charged)`;
  // One statement (one round trip, one commit) takes the points, creates or touches the session and
  // stores the message, before the upstream is called.
  const storeStarted = performance.now();
  const result = await ctx.db.execute<{ charged: boolean; message_id: string | null }>(sql`
    with ${chargeCtes(user.id, cost, ctx.config.FREE_DAILY_POINTS, { kind: 'message', key: `message:${messageId}`, refId: messageId })},
    s as (${
      body.chatSessionId
        ? sql`update chat_sessions set last_active_at = now(), describe = ${describe}
              where id = ${sessionId} and user_id = ${user.id} and ${ifCharged} returning id`
        : sql`insert into chat_sessions (id, user_id, title, describe)
              select ${sessionId}, ${user.id}, ${sessionTitleFrom(body.inputMessage)}, ${describe} where ${ifCharged} returning id`
    }),
    m as (
      insert into chat_messages (id, session_id, user_id, input_message, media_ids, requested_model_id, ai_model_id, model_name, points_cost)
      select ${messageValues} from s returning id
    )
    select ${ifCharged} as charged, (select id from m) as message_id`);
  const storeMs = performance.now() - storeStarted;
  const { charged, message_id: inserted } = result.rows[0];
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
  return {
    messageId,
    sessionId,
    userId: user.id,
    input: body.inputMessage,
    resolved,
    turns: buildTurns(history, { text: body.inputMessage, mediaIds: body.chatMediaIds, images }, media, model.contextWindow),
    webSearch: !!body.webSearch,
    plugins,
    storeMs,
  };
}

