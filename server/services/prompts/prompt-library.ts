import { sql, type SQL } from 'drizzle-orm';
import type { Language, Paged } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { LibraryPrompt, PromptListQuery, PromptSource, UsePromptResult } from '../../../shared/contracts/prompt-library.ts';
import type { AppliesTo, QuickFunctionCategory, UserQuickFunction } from '../../../shared/contracts/quick-function.ts';
import { MAX_QF_DESCRIPTION_CHARS, MAX_QF_NAME_CHARS } from '../../../shared/contracts/quick-function.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { escapeLike } from '../../db/like.ts';
import { promptSubmissionTags, promptSubmissions, promptUses } from '../../db/schema/prompt-library.ts';
import { recommendedPromptTags } from '../../db/schema/prompt-tags.ts';
import { recommendedPrompts } from '../../db/schema/quick-functions.ts';
import { users } from '../../db/schema/users.ts';
import { AppError } from '../../core/errors.ts';
import { saveOwnQuickFunction } from '../quick-functions/quick-functions.ts';
import { tagsOfRecommendedPrompts, tagsOfSharedPrompts } from './prompt-tags.ts';
import { appliesToOf } from '../../../shared/utils/applies-to.ts';

/**
 * The prompt library (docs/api.md#prompt-library): the operators' online recommended prompts and the
 * community's approved prompts (authors whose account is open) as one list, in one language, paged,
 * by tag and by words, most used or newest first. Uses are counted once per user, prompt and day.
 */

type Row = {
  id: string;
  source: PromptSource;
  title: string;
  description: string;
  content: string;
  category: QuickFunctionCategory;
  icon: string;
  language: Language;
  author_name: string | null;
  published_at: string | Date;
  applies_to: AppliesTo[] | string | null;
  use_count: number | string;
};

type Filter = { language?: Language; tagId?: string; q?: string; source?: PromptListQuery['source']; promptId?: string };

/** Uses counted so far of the prompt with id `id` (an SQL expression). */
const usesOf = (id: SQL) => sql`(select count(*)::int from ${promptUses} where ${promptUses.promptId} = ${id})`;

/** The visible prompts matching `f`, as one relation `p` (the two sources side by side). */
function libraryRelation(f: Filter): SQL {
  const words = f.q ? `%${escapeLike(f.q)}%` : null;
  const recommendedWhere = [
    sql`r.online`,
    f.language ? sql`r.language = ${f.language}` : undefined,
    f.promptId ? sql`r.id = ${f.promptId}` : undefined,
    f.tagId ? sql`exists (select 1 from ${recommendedPromptTags} rt where rt.prompt_id = r.id and rt.tag_id = ${f.tagId})` : undefined,
    words ? sql`(r.title ilike ${words} or r.content ilike ${words})` : undefined,
  ].filter((c): c is SQL => c !== undefined);
  const communityWhere = [
    sql`s.state = 'approved'`,
    sql`u.status = 'active'`,
    f.language ? sql`s.language = ${f.language}` : undefined,
    f.promptId ? sql`s.id = ${f.promptId}` : undefined,
    f.tagId ? sql`exists (select 1 from ${promptSubmissionTags} st where st.submission_id = s.id and st.tag_id = ${f.tagId})` : undefined,
    words ? sql`(s.title ilike ${words} or s.description ilike ${words} or s.content ilike ${words})` : undefined,
  ].filter((c): c is SQL => c !== undefined);
  const recommended = sql`select r.id, 'recommended' as source, r.title, '' as description, r.content, r.category, r.icon, r.language,
      null::text as author_name, r.created_at as published_at, null::jsonb as applies_to, r.sort as sort
    from ${recommendedPrompts} r where ${sql.join(recommendedWhere, sql` and `)}`;
  const community = sql`select s.id, 'community' as source, s.title, s.description, s.content, s.category, s.icon, s.language,
      u.user_name as author_name, s.published_at, s.applies_to, 0 as sort
    from ${promptSubmissions} s join ${users} u on u.id = s.user_id where ${sql.join(communityWhere, sql` and `)}`;
  const parts = f.source === 'recommended' ? [recommended] : f.source === 'community' ? [community] : [recommended, community];
  return sql`(${sql.join(parts, sql` union all `)}) p`;
}

const rowsOf = async <T>(db: Db, query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

async function withTags(db: Db, rows: Row[]): Promise<LibraryPrompt[]> {
  const of = (source: PromptSource, lang: Language) => rows.filter((r) => r.source === source && r.language === lang).map((r) => r.id);
  const tags = new Map<string, LibraryPrompt['tags']>();
  for (const lang of ['en', 'zh'] as const) {
    for (const [id, list] of await tagsOfRecommendedPrompts(db, of('recommended', lang), lang)) tags.set(`recommended:${id}`, list);
    for (const [id, list] of await tagsOfSharedPrompts(db, of('community', lang), lang)) tags.set(`community:${id}`, list);
  }
  return rows.map((r) => ({
    promptId: r.id,
    source: r.source,
    title: r.title,
    description: r.description,
    content: r.content,
    category: r.category,
    icon: r.icon,
    language: r.language,
    tags: tags.get(`${r.source}:${r.id}`) ?? [],
    authorName: r.author_name,
    useCount: Number(r.use_count),
    publishTime: new Date(r.published_at).toISOString(),
  }));
}

/** One page of the library in `lang` (the query's language first). */
export async function listLibraryPrompts(ctx: AppContext, lang: Language, q: PromptListQuery): Promise<Paged<LibraryPrompt>> {
  const relation = libraryRelation({ language: q.language ?? lang, tagId: q.tagId, q: q.q || undefined, source: q.source });
  const order =
    q.sort === 'new'
      ? sql`p.published_at desc, p.id`
      : sql`use_count desc, case when p.source = 'recommended' then 0 else 1 end, p.sort, p.published_at desc, p.id`;
  const [rows, totals] = await Promise.all([
    rowsOf<Row>(ctx.db, sql`select p.*, ${usesOf(sql`p.id`)} as use_count from ${relation} order by ${order} limit ${q.count} offset ${(q.page - 1) * q.count}`),
    rowsOf<{ n: number | string }>(ctx.db, sql`select count(*)::int as n from ${relation}`),
  ]);
  return { list: await withTags(ctx.db, rows), total: Number(totals[0]?.n ?? 0) };
}

/** A visible prompt of the library, with its source's own fields; null when hidden, pending or unknown. */
async function findLibraryPrompt(db: Db, id: string): Promise<(LibraryPrompt & { appliesTo: AppliesTo[] | null }) | null> {
  const rows = await rowsOf<Row>(db, sql`select p.*, ${usesOf(sql`p.id`)} as use_count from ${libraryRelation({ promptId: id })} order by p.source limit 1`);
  const row = rows[0];
  if (!row) return null;
  const applies = typeof row.applies_to === 'string' ? (JSON.parse(row.applies_to) as AppliesTo[]) : row.applies_to;
  return { ...(await withTags(db, [row]))[0]!, appliesTo: applies };
}

export async function getLibraryPrompt(ctx: AppContext, id: string): Promise<LibraryPrompt> {
  const found = await findLibraryPrompt(ctx.db, id);
  if (!found) throw new AppError(Codes.NotFound, 'notFound');
  const { appliesTo: _a, ...prompt } = found;
  return prompt;
}

/** Today in UTC, the day a use is counted in. */
const today = () => new Date().toISOString().slice(0, 10);

/** Counts a use of a visible prompt: once per user, prompt and day (the primary key keeps it so under races). */
export async function usePrompt(ctx: AppContext, userId: string, id: string): Promise<UsePromptResult> {
  if (!(await findLibraryPrompt(ctx.db, id))) throw new AppError(Codes.NotFound, 'notFound');
  const added = await ctx.db.insert(promptUses).values({ promptId: id, userId, day: today() }).onConflictDoNothing().returning({ day: promptUses.day });
  const [counted] = await rowsOf<{ n: number | string }>(ctx.db, sql`select ${usesOf(sql`${id}`)} as n`);
  return { counted: added.length > 0, useCount: Number(counted?.n ?? 0) };
}

/**
 * Copies a library prompt into the caller's own prompts (a user quick function, with the prompt's tags),
 * through the own-prompt store and its limit: a copy the user may change; the library's stays as it is.
 */
export async function copyPromptToMine(ctx: AppContext, userId: string, id: string): Promise<UserQuickFunction> {
  const prompt = await findLibraryPrompt(ctx.db, id);
  if (!prompt) throw new AppError(Codes.NotFound, 'notFound');
  return saveOwnQuickFunction(ctx, userId, {
    parentId: null,
    name: prompt.title.slice(0, MAX_QF_NAME_CHARS),
    icon: prompt.icon,
    description: prompt.description.slice(0, MAX_QF_DESCRIPTION_CHARS),
    template: prompt.content,
    category: prompt.category,
    appliesTo: prompt.appliesTo?.length ? prompt.appliesTo : appliesToOf(prompt.content),
    aiModelId: null,
    pinned: false,
    online: true,
    isGroup: false,
    tagIds: prompt.tags.map((tag) => tag.tagPromptId),
  });
}
