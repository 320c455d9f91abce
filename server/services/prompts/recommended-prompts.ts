import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { Language, Paged } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AdminRecommendedPrompt, AdminSaveRecommendedPromptBody, RecommendedPrompt } from '../../../shared/contracts/quick-function.ts';
import type { AppContext } from '../../context.ts';
import { recommendedPrompts } from '../../db/schema/quick-functions.ts';
import { AppError } from '../../core/errors.ts';

/** Recommended prompts (AiPrompWord): starting points operators offer users, one language each. */

type Row = typeof recommendedPrompts.$inferSelect;

const item = (r: Row): RecommendedPrompt => ({ aiPrompWordId: r.id, title: r.title, content: r.content, category: r.category, icon: r.icon, sort: r.sort });
const adminItem = (r: Row): AdminRecommendedPrompt => ({ ...item(r), language: r.language, online: r.online, updateTime: r.updatedAt.toISOString() });

export async function listRecommendedPrompts(ctx: AppContext, lang: Language): Promise<RecommendedPrompt[]> {
  const rows = await ctx.db
    .select()
    .from(recommendedPrompts)
    .where(and(eq(recommendedPrompts.language, lang), eq(recommendedPrompts.online, true)))
    .orderBy(asc(recommendedPrompts.sort), asc(recommendedPrompts.id));
  return rows.map(item);
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
  return { list: rows.map(adminItem), total: totals[0]?.n ?? 0 };
}

export async function adminGetRecommendedPrompt(ctx: AppContext, id: string): Promise<AdminRecommendedPrompt> {
  const [row] = await ctx.db.select().from(recommendedPrompts).where(eq(recommendedPrompts.id, id));
  if (!row) throw new AppError(Codes.NotFound, 'notFound');
  return adminItem(row);
}

export async function adminSaveRecommendedPrompt(ctx: AppContext, body: AdminSaveRecommendedPromptBody): Promise<AdminRecommendedPrompt> {
  const { aiPrompWordId: id, ...fields } = body;
  const [row] = id
    ? await ctx.db.update(recommendedPrompts).set({ ...fields, updatedAt: new Date() }).where(eq(recommendedPrompts.id, id)).returning()
    : await ctx.db
        .insert(recommendedPrompts)
        .values({ id: randomUUID(), ...fields })
        .returning();
  if (!row) throw new AppError(Codes.NotFound, 'notFound');
  return adminItem(row);
}

export async function adminDeleteRecommendedPrompt(ctx: AppContext, id: string): Promise<void> {
  const gone = await ctx.db.delete(recommendedPrompts).where(eq(recommendedPrompts.id, id)).returning({ id: recommendedPrompts.id });
  if (gone.length === 0) throw new AppError(Codes.NotFound, 'notFound');
}
