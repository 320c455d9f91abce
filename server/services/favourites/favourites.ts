import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import { Codes } from '../../../shared/contracts/envelope.ts';
import {
  FAVOURITE_PREVIEW_CHARS,
  MAX_FAVOURITE_ANSWER_CHARS,
  MAX_FAVOURITE_QUESTION_CHARS,
  type FavouriteItem,
  type FavouriteListQuery,
  type FavouritePage,
  type IsSavedResult,
  type UpdateFavouriteBody,
} from '../../../shared/contracts/favourites.ts';
import { stripProductTags } from '../../../shared/utils/strip-tags.ts';
import type { Db } from '../../db/client.ts';
import { escapeLike } from '../../db/like.ts';
import { chatMessages } from '../../db/schema/chat.ts';
import { favourites } from '../../db/schema/favourites.ts';
import { AppError } from '../../core/errors.ts';

/**
 * Favourite answers (docs/api.md#favourite-answers-save). A favourite is a copy of an answer, so
 * editing it leaves the chat alone and deleting the chat leaves it; whether its source message still
 * exists is read with each answer (`sourceExists`). Every statement is limited to the caller's rows:
 * another user's favourite or message answers 10404 as if absent.
 */

type Row = typeof favourites.$inferSelect;

/** The source message exists and is still the owner's: tested per row when read. */
const sourceExists = sql<boolean>`exists (select 1 from ${chatMessages} m where m.id = ${favourites.sourceMessageId} and m.user_id = ${favourites.userId})`;

function itemOf(row: Row, exists: boolean): FavouriteItem {
  return {
    favouriteId: row.id,
    question: row.question,
    answer: row.answer,
    aiModelId: row.aiModelId,
    modelName: row.modelName,
    answerTime: row.answeredAt.toISOString(),
    createTime: row.createdAt.toISOString(),
    updateTime: row.updatedAt.toISOString(),
    chatSessionId: row.sourceSessionId,
    chatMessageId: row.sourceMessageId,
    sourceExists: exists,
    edited: row.editedAt !== null,
  };
}

const own = (userId: string, favouriteId: string) => and(eq(favourites.userId, userId), eq(favourites.id, favouriteId));

async function readOwn(db: Db, userId: string, favouriteId: string): Promise<FavouriteItem> {
  const [found] = await db.select({ row: favourites, exists: sourceExists }).from(favourites).where(own(userId, favouriteId));
  if (!found) throw new AppError(Codes.NotFound, 'notFound');
  return itemOf(found.row, Boolean(found.exists));
}

/**
 * Saves a copy of the answer of the caller's message `chatMessageId` (its text as the chat shows it,
 * without the product's custom tags). Saving the same message again answers the favourite already
 * made, unchanged (edits kept). An answer still streaming, or one without text, cannot be saved.
 */
export async function addFavourite(db: Db, userId: string, chatMessageId: string): Promise<FavouriteItem> {
  const [message] = await db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.id, chatMessageId), eq(chatMessages.userId, userId)));
  if (!message) throw new AppError(Codes.NotFound, 'notFound');
  const [existing] = await db
    .select({ id: favourites.id })
    .from(favourites)
    .where(and(eq(favourites.userId, userId), eq(favourites.sourceMessageId, chatMessageId)));
  if (existing) return readOwn(db, userId, existing.id);
  if (message.finishReason === null) throw new AppError(Codes.Conflict, 'favouriteAnswerUnfinished');
  const answer = stripProductTags(message.outputMessage).slice(0, MAX_FAVOURITE_ANSWER_CHARS);
  if (!answer.trim()) throw new AppError(Codes.BadRequest, 'favouriteAnswerEmpty');
  const id = randomUUID();
  // Two saves at once: the unique (user, source message) keeps one; the other reads it.
  const inserted = await db
    .insert(favourites)
    .values({
      id,
      userId,
      question: stripProductTags(message.inputMessage).slice(0, MAX_FAVOURITE_QUESTION_CHARS),
      answer,
      aiModelId: message.aiModelId,
      modelName: message.modelName,
      answeredAt: message.finishedAt ?? message.createdAt,
      sourceSessionId: message.sessionId,
      sourceMessageId: message.id,
    })
    .onConflictDoNothing({ target: [favourites.userId, favourites.sourceMessageId] })
    .returning({ id: favourites.id });
  if (inserted.length) return readOwn(db, userId, id);
  const [winner] = await db
    .select({ id: favourites.id })
    .from(favourites)
    .where(and(eq(favourites.userId, userId), eq(favourites.sourceMessageId, chatMessageId)));
  return readOwn(db, userId, winner!.id);
}

/** Case-insensitive substring of the question or the answer; wildcards in the text match literally. */
function searchOf(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const pattern = `%${escapeLike(q)}%`;
  return sql`(${favourites.question} ilike ${pattern} or ${favourites.answer} ilike ${pattern})`;
}

/**
 * A page of the caller's favourites, newest saved first, optionally those whose question or answer
 * contains `q`. Each answer is cut to FAVOURITE_PREVIEW_CHARS (in the database, so long answers do
 * not travel whole).
 */
export async function listFavourites(db: Db, userId: string, q: FavouriteListQuery): Promise<FavouritePage> {
  const where = and(eq(favourites.userId, userId), searchOf(q.q));
  const { answer: _whole, ...columns } = getTableColumns(favourites);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        ...columns,
        answer: sql<string>`left(${favourites.answer}, ${FAVOURITE_PREVIEW_CHARS})`,
        answerTruncated: sql<boolean>`char_length(${favourites.answer}) > ${FAVOURITE_PREVIEW_CHARS}`,
        exists: sourceExists,
      })
      .from(favourites)
      .where(where)
      .orderBy(desc(favourites.createdAt), desc(favourites.id))
      .limit(q.count)
      .offset((q.page - 1) * q.count),
    db.select({ total: count() }).from(favourites).where(where),
  ]);
  const list = rows.map(({ exists, answerTruncated, ...row }) => ({ ...itemOf(row, Boolean(exists)), answerTruncated: Boolean(answerTruncated) }));
  return { list, total };
}

export function getFavourite(db: Db, userId: string, favouriteId: string): Promise<FavouriteItem> {
  return readOwn(db, userId, favouriteId);
}

/** Replaces the saved copy's answer (and question when given); the chat it came from is not touched. */
export async function updateFavourite(db: Db, userId: string, body: UpdateFavouriteBody): Promise<FavouriteItem> {
  const changed = await db
    .update(favourites)
    .set({
      answer: body.answer,
      ...(body.question !== undefined ? { question: body.question } : {}),
      editedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(own(userId, body.favouriteId))
    .returning({ id: favourites.id });
  if (!changed.length) throw new AppError(Codes.NotFound, 'notFound');
  return readOwn(db, userId, body.favouriteId);
}

export async function deleteFavourite(db: Db, userId: string, favouriteId: string): Promise<void> {
  const gone = await db.delete(favourites).where(own(userId, favouriteId)).returning({ id: favourites.id });
  if (!gone.length) throw new AppError(Codes.NotFound, 'notFound');
}

/** Which of the messages `chatMessageIds` the caller saved (others' and unknown ids are simply not listed). */
export async function savedAmong(db: Db, userId: string, chatMessageIds: string[]): Promise<IsSavedResult> {
  const ids = [...new Set(chatMessageIds)];
  if (!ids.length) return { list: [] };
  const rows = await db
    .select({ chatMessageId: favourites.sourceMessageId, favouriteId: favourites.id })
    .from(favourites)
    .where(and(eq(favourites.userId, userId), inArray(favourites.sourceMessageId, ids)));
  return { list: rows.map((r) => ({ chatMessageId: r.chatMessageId!, favouriteId: r.favouriteId })) };
}
