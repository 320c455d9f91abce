import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { Language } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AdminPromptTag, AdminSavePromptTagBody, PromptTag, PromptTagRef } from '../../../shared/contracts/prompt-tag.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { promptTags, recommendedPromptTags, userQuickFunctionTags } from '../../db/schema/prompt-tags.ts';
import { promptSubmissionTags } from '../../db/schema/prompt-library.ts';
import { recommendedPrompts, userQuickFunctions } from '../../db/schema/quick-functions.ts';
import { isUniqueViolation } from '../../core/db-errors.ts';
import { AppError } from '../../core/errors.ts';

/**
 * Prompt tags (TagPrompt): operators' labels, named in both languages, that recommended prompts and
 * users' own prompts carry (docs/api.md#prompt-tags). Links go with the tag or the prompt (foreign
 * keys on delete cascade); a tag's deletion never touches a prompt.
 */

type TagRow = typeof promptTags.$inferSelect;
/** What a link can be written in: the database or a transaction. */
type Writer = Pick<Db, 'select' | 'insert' | 'delete'>;

const nameIn = (lang: Language) => (lang === 'zh' ? promptTags.nameZh : promptTags.nameEn);
const tagOrder = [asc(promptTags.sort), asc(promptTags.createdAt), asc(promptTags.id)];

/** The public list: every tag named in `lang`, in order, with the online recommended prompts of `lang` carrying it. */
export async function listPromptTags(ctx: AppContext, lang: Language): Promise<PromptTag[]> {
  const rows = await ctx.db
    .select({ tagPromptId: promptTags.id, name: nameIn(lang), sort: promptTags.sort, promptCount: count(recommendedPrompts.id) })
    .from(promptTags)
    .leftJoin(recommendedPromptTags, eq(recommendedPromptTags.tagId, promptTags.id))
    .leftJoin(
      recommendedPrompts,
      and(eq(recommendedPrompts.id, recommendedPromptTags.promptId), eq(recommendedPrompts.online, true), eq(recommendedPrompts.language, lang)),
    )
    .groupBy(promptTags.id)
    .orderBy(...tagOrder);
  return rows;
}

/** The tags of each recommended prompt of `promptIds`, named in `lang`, in the tags' order. */
export async function tagsOfRecommendedPrompts(db: Db, promptIds: string[], lang: Language): Promise<Map<string, PromptTagRef[]>> {
  const byPrompt = new Map<string, PromptTagRef[]>();
  if (promptIds.length === 0) return byPrompt;
  const rows = await db
    .select({ promptId: recommendedPromptTags.promptId, tagPromptId: promptTags.id, name: nameIn(lang) })
    .from(recommendedPromptTags)
    .innerJoin(promptTags, eq(promptTags.id, recommendedPromptTags.tagId))
    .where(inArray(recommendedPromptTags.promptId, promptIds))
    .orderBy(...tagOrder);
  for (const { promptId, ...tag } of rows) byPrompt.set(promptId, [...(byPrompt.get(promptId) ?? []), tag]);
  return byPrompt;
}

/** The tags of each shared prompt (submission) of `ids`, named in `lang`, in the tags' order. */
export async function tagsOfSharedPrompts(db: Db, ids: string[], lang: Language): Promise<Map<string, PromptTagRef[]>> {
  const byPrompt = new Map<string, PromptTagRef[]>();
  if (ids.length === 0) return byPrompt;
  const rows = await db
    .select({ promptId: promptSubmissionTags.submissionId, tagPromptId: promptTags.id, name: nameIn(lang) })
    .from(promptSubmissionTags)
    .innerJoin(promptTags, eq(promptTags.id, promptSubmissionTags.tagId))
    .where(inArray(promptSubmissionTags.submissionId, ids))
    .orderBy(...tagOrder);
  for (const { promptId, ...tag } of rows) byPrompt.set(promptId, [...(byPrompt.get(promptId) ?? []), tag]);
  return byPrompt;
}

/** The tag ids of each of a user's own prompts, in the tags' order. */
export async function tagIdsOfOwnPrompts(db: Db, userId: string): Promise<Map<string, string[]>> {
  const rows = await db
    .select({ id: userQuickFunctionTags.userQuickFunctionId, tagId: userQuickFunctionTags.tagId })
    .from(userQuickFunctionTags)
    .innerJoin(userQuickFunctions, eq(userQuickFunctions.id, userQuickFunctionTags.userQuickFunctionId))
    .innerJoin(promptTags, eq(promptTags.id, userQuickFunctionTags.tagId))
    .where(eq(userQuickFunctions.userId, userId))
    .orderBy(...tagOrder);
  const byPrompt = new Map<string, string[]>();
  for (const { id, tagId } of rows) byPrompt.set(id, [...(byPrompt.get(id) ?? []), tagId]);
  return byPrompt;
}

/** Refuses a tag id that names no tag (10400), so a prompt is never saved half-tagged. */
async function checkTagsExist(db: Writer, tagIds: string[]): Promise<void> {
  if (tagIds.length === 0) return;
  const [found] = await db.select({ n: count() }).from(promptTags).where(inArray(promptTags.id, tagIds));
  if ((found?.n ?? 0) !== tagIds.length) throw new AppError(Codes.BadRequest, 'promptTagUnknown');
}

/** Gives a recommended prompt exactly `tagIds` (call inside the transaction that saves the prompt). */
export async function setRecommendedPromptTags(db: Writer, promptId: string, tagIds: string[]): Promise<void> {
  await checkTagsExist(db, tagIds);
  await db.delete(recommendedPromptTags).where(eq(recommendedPromptTags.promptId, promptId));
  if (tagIds.length) await db.insert(recommendedPromptTags).values(tagIds.map((tagId) => ({ promptId, tagId })));
}

/** Gives one of a user's own prompts exactly `tagIds` (call inside the transaction that saves the prompt). */
export async function setOwnPromptTags(db: Writer, userQuickFunctionId: string, tagIds: string[]): Promise<void> {
  await checkTagsExist(db, tagIds);
  await db.delete(userQuickFunctionTags).where(eq(userQuickFunctionTags.userQuickFunctionId, userQuickFunctionId));
  if (tagIds.length) await db.insert(userQuickFunctionTags).values(tagIds.map((tagId) => ({ userQuickFunctionId, tagId })));
}

/** Gives a shared prompt (submission) exactly `tagIds` (call inside the transaction that saves it). */
export async function setSharedPromptTags(db: Writer, submissionId: string, tagIds: string[]): Promise<void> {
  await checkTagsExist(db, tagIds);
  await db.delete(promptSubmissionTags).where(eq(promptSubmissionTags.submissionId, submissionId));
  if (tagIds.length) await db.insert(promptSubmissionTags).values(tagIds.map((tagId) => ({ submissionId, tagId })));
}

// ---- operators ----

const recommendedCount = sql<number>`(select count(*)::int from ${recommendedPromptTags} where ${recommendedPromptTags.tagId} = ${promptTags.id})`;
const ownCount = sql<number>`(select count(*)::int from ${userQuickFunctionTags} where ${userQuickFunctionTags.tagId} = ${promptTags.id})`;

const adminItem = (row: TagRow & { promptCount: number; userPromptCount: number }): AdminPromptTag => ({
  tagPromptId: row.id,
  nameEn: row.nameEn,
  nameZh: row.nameZh,
  sort: row.sort,
  createTime: row.createdAt.toISOString(),
  promptCount: Number(row.promptCount),
  userPromptCount: Number(row.userPromptCount),
});

async function adminRows(ctx: AppContext, id?: string): Promise<AdminPromptTag[]> {
  const rows = await ctx.db
    .select({
      id: promptTags.id,
      nameEn: promptTags.nameEn,
      nameZh: promptTags.nameZh,
      sort: promptTags.sort,
      createdAt: promptTags.createdAt,
      promptCount: recommendedCount,
      userPromptCount: ownCount,
    })
    .from(promptTags)
    .where(id === undefined ? undefined : eq(promptTags.id, id))
    .orderBy(...tagOrder);
  return rows.map(adminItem);
}

export function adminListPromptTags(ctx: AppContext): Promise<AdminPromptTag[]> {
  return adminRows(ctx);
}

/** One tag (the audit log's before and after); null when there is none. */
export async function adminGetPromptTag(ctx: AppContext, id: string): Promise<AdminPromptTag | null> {
  return (await adminRows(ctx, id))[0] ?? null;
}

/** The error for a name another tag has in the same language (any case). */
const nameTaken = (name: string) => new AppError(Codes.Conflict, 'promptTagNameTaken', { name });

/**
 * Creates a tag (no tagPromptId) or renames / re-sorts one. Each name must be free in its language
 * whatever its case: checked first for a clear message, and by the unique indexes against a race.
 */
export async function adminSavePromptTag(ctx: AppContext, body: AdminSavePromptTagBody): Promise<AdminPromptTag> {
  const { tagPromptId: id, nameEn, nameZh, sort } = body;
  const others = id ? ne(promptTags.id, id) : undefined;
  const clash = await ctx.db
    .select({ nameEn: promptTags.nameEn, nameZh: promptTags.nameZh })
    .from(promptTags)
    .where(and(others, or(sql`lower(${promptTags.nameEn}) = lower(${nameEn})`, sql`lower(${promptTags.nameZh}) = lower(${nameZh})`)))
    .limit(1);
  if (clash[0]) throw nameTaken(clash[0].nameEn.toLowerCase() === nameEn.toLowerCase() ? nameEn : nameZh);
  let savedId: string;
  try {
    if (id) {
      const updated = await ctx.db
        .update(promptTags)
        .set({ nameEn, nameZh, ...(sort === undefined ? {} : { sort }) })
        .where(eq(promptTags.id, id))
        .returning({ id: promptTags.id });
      if (updated.length === 0) throw new AppError(Codes.NotFound, 'notFound');
      savedId = id;
    } else {
      const [last] = await ctx.db.select({ n: sql<number>`coalesce(max(${promptTags.sort}), 0)::int` }).from(promptTags);
      savedId = randomUUID();
      await ctx.db.insert(promptTags).values({ id: savedId, nameEn, nameZh, sort: sort ?? (last?.n ?? 0) + 10 });
    }
  } catch (err) {
    if (isUniqueViolation(err, 'prompt_tags_name_en_uq')) throw nameTaken(nameEn);
    if (isUniqueViolation(err, 'prompt_tags_name_zh_uq')) throw nameTaken(nameZh);
    throw err;
  }
  const saved = await adminGetPromptTag(ctx, savedId);
  if (!saved) throw new AppError(Codes.NotFound, 'notFound');
  return saved;
}

/** Deletes a tag and, with it, its links; the prompts that carried it stay. */
export async function adminDeletePromptTag(ctx: AppContext, id: string): Promise<void> {
  const gone = await ctx.db.delete(promptTags).where(eq(promptTags.id, id)).returning({ id: promptTags.id });
  if (gone.length === 0) throw new AppError(Codes.NotFound, 'notFound');
}
