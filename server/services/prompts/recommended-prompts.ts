import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, exists } from 'drizzle-orm';
import type { Language, Paged } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { PromptTagRef } from '../../../shared/contracts/prompt-tag.ts';
import type { AdminRecommendedPrompt, AdminSaveRecommendedPromptBody, RecommendedPrompt } from '../../../shared/contracts/quick-function.ts';
import type { AppContext } from '../../context.ts';
import { recommendedPromptTags } from '../../db/schema/prompt-tags.ts';
import { recommendedPrompts } from '../../db/schema/quick-functions.ts';
import { AppError } from '../../core/errors.ts';
import { setRecommendedPromptTags, tagsOfRecommendedPrompts } from './prompt-tags.ts';

/** Recommended prompts (AiPrompWord): starting points operators offer users, one language each, with their tags. */

type Row = typeof recommendedPrompts.$inferSelect;
type Tags = Map<string, PromptTagRef[]>;

const item = (r: Row, tags: Tags): RecommendedPrompt => ({
  aiPrompWordId: r.id,
  title: r.title,
  content: r.content,
  category: r.category,
  icon: r.icon,
  sort: r.sort,
  tags: tags.get(r.id) ?? [],
});
const adminItem = (r: Row, tags: Tags): AdminRecommendedPrompt => ({ ...item(r, tags), language: r.language, online: r.online, updateTime: r.updatedAt.toISOString() });

/** Rows with their tags, each named in the row's own language. */
async function withTags<T>(ctx: AppContext, rows: Row[], as: (r: Row, tags: Tags) => T): Promise<T[]> {
  const langs = [...new Set(rows.map((r) => r.language))];
  const byLang = new Map(
    await Promise.all(langs.map(async (lang) => [lang, await tagsOfRecommendedPrompts(ctx.db, rows.filter((r) => r.language === lang).map((r) => r.id), lang)] as const)),
  );
  return rows.map((r) => as(r, byLang.get(r.language)!));
}

/** The online prompts of `lang`, in order; with `tagId`, only those carrying that tag. */
export async function listRecommendedPrompts(ctx: AppContext, lang: Language, tagId?: string): Promise<RecommendedPrompt[]> {
  const tagged = tagId
    ? exists(
        ctx.db
          .select({ one: recommendedPromptTags.tagId })
          .from(recommendedPromptTags)
          .where(and(eq(recommendedPromptTags.promptId, recommendedPrompts.id), eq(recommendedPromptTags.tagId, tagId))),
      )
    : undefined;
  const rows = await ctx.db
    .select()
    .from(recommendedPrompts)
    .where(and(eq(recommendedPrompts.language, lang), eq(recommendedPrompts.online, true), tagged))
    .orderBy(asc(recommendedPrompts.sort), asc(recommendedPrompts.id));
  return withTags(ctx, rows, item);
}

export async function adminListRecommendedPrompts(
  ctx: AppContext,
  q: { page: number; count: number; language?: Language },
): Promise<Paged<AdminRecommendedPrompt>> {
  const where = q.language ? eq(recommendedPrompts.language, q.language) : undefined;
  const [rows, totals] = await Promise.all([
    ctx.db
      .select()
      .from(recommendedPrompts)
      .where(where)
      .orderBy(asc(recommendedPrompts.language), asc(recommendedPrompts.sort), desc(recommendedPrompts.createdAt))
      .limit(q.count)
      .offset((q.page - 1) * q.count),
    ctx.db.select({ n: count() }).from(recommendedPrompts).where(where),
  ]);
  return { list: await withTags(ctx, rows, adminItem), total: totals[0]?.n ?? 0 };
}

export async function adminGetRecommendedPrompt(ctx: AppContext, id: string): Promise<AdminRecommendedPrompt> {
  const [row] = await ctx.db.select().from(recommendedPrompts).where(eq(recommendedPrompts.id, id));
  if (!row) throw new AppError(Codes.NotFound, 'notFound');
  return (await withTags(ctx, [row], adminItem))[0]!;
}

/** Creates or updates a prompt and, when `tagIds` is given, its tags: both or neither (one transaction). */
export async function adminSaveRecommendedPrompt(ctx: AppContext, body: AdminSaveRecommendedPromptBody): Promise<AdminRecommendedPrompt> {
  const { aiPrompWordId: id, tagIds, ...fields } = body;
  const row = await ctx.db.transaction(async (tx) => {
    const [saved] = id
      ? await tx.update(recommendedPrompts).set({ ...fields, updatedAt: new Date() }).where(eq(recommendedPrompts.id, id)).returning()
      : await tx
          .insert(recommendedPrompts)
          .values({ id: randomUUID(), ...fields })
          .returning();
    if (!saved) throw new AppError(Codes.NotFound, 'notFound');
    if (tagIds) await setRecommendedPromptTags(tx, saved.id, tagIds);
    return saved;
  });
  return (await withTags(ctx, [row], adminItem))[0]!;
}

export async function adminDeleteRecommendedPrompt(ctx: AppContext, id: string): Promise<void> {
  const gone = await ctx.db.delete(recommendedPrompts).where(eq(recommendedPrompts.id, id)).returning({ id: recommendedPrompts.id });
  if (gone.length === 0) throw new AppError(Codes.NotFound, 'notFound');
}
