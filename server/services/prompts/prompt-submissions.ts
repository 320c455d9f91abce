import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, ilike, ne, or, sql } from 'drizzle-orm';
import type { Language, Paged } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import {
  MAX_PENDING_PROMPT_SUBMISSIONS,
  type AdminPromptSubmission,
  type AdminPromptSubmissionListQuery,
  type PromptSubmission,
  type PromptSubmissionState,
  type SubmitPromptBody,
} from '../../../shared/contracts/prompt-library.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { escapeLike } from '../../db/like.ts';
import { promptSubmissions, promptUses } from '../../db/schema/prompt-library.ts';
import { userQuickFunctionTags } from '../../db/schema/prompt-tags.ts';
import { userQuickFunctions } from '../../db/schema/quick-functions.ts';
import { users } from '../../db/schema/users.ts';
import { AppError } from '../../core/errors.ts';
import { lockUser } from '../accounts/user-lock.ts';
import { notify } from '../notifications/notifications.ts';
import { announcingNotified } from '../notifications/unread-events.ts';
import { setSharedPromptTags, tagsOfSharedPrompts } from './prompt-tags.ts';

/**
 * Sharing one's own prompts to the community library, and the operators' review of them
 * (docs/api.md#prompt-library). A submission is a snapshot of an own prompt's text: the text an
 * operator approved is the text the library shows, until the author submits it again (back to pending).
 */

type Row = typeof promptSubmissions.$inferSelect;
const notFound = () => new AppError(Codes.NotFound, 'notFound');

const useCount = sql<number>`(select count(*)::int from ${promptUses} where ${promptUses.promptId} = ${promptSubmissions.id})`;

/** Rows with their tags (each named in the submission's own language) and use counts. */
async function items(db: Db, rows: (Row & { uses: number })[]): Promise<PromptSubmission[]> {
  const tags = new Map<string, PromptSubmission['tags']>();
  for (const lang of ['en', 'zh'] as const) {
    const ids = rows.filter((r) => r.language === lang).map((r) => r.id);
    for (const [id, list] of await tagsOfSharedPrompts(db, ids, lang)) tags.set(id, list);
  }
  return rows.map((r) => ({
    promptSubmissionId: r.id,
    userQuickFunctionId: r.userQuickFunctionId,
    title: r.title,
    description: r.description,
    content: r.content,
    category: r.category,
    icon: r.icon,
    appliesTo: r.appliesTo,
    language: r.language,
    tags: tags.get(r.id) ?? [],
    state: r.state,
    reason: r.reason,
    useCount: Number(r.uses),
    submitTime: r.submittedAt.toISOString(),
    reviewTime: r.reviewedAt?.toISOString() ?? null,
  }));
}

/** The caller's submissions, newest first. */
export async function listMySubmissions(ctx: AppContext, userId: string): Promise<PromptSubmission[]> {
  const rows = await ctx.db
    .select({ row: promptSubmissions, uses: useCount })
    .from(promptSubmissions)
    .where(eq(promptSubmissions.userId, userId))
    .orderBy(desc(promptSubmissions.submittedAt), asc(promptSubmissions.id));
  return items(
    ctx.db,
    rows.map(({ row, uses }) => ({ ...row, uses })),
  );
}

/**
 * Shares one of the caller's own prompts (a tool with content; not a group): a new submission, or the
 * one it already has replaced (its text taken again, its title, description, tags and language as
 * given) — pending either way, so an approved prompt that is edited leaves the library until approved
 * again. Counted and written under the user's row lock: at most MAX_PENDING_PROMPT_SUBMISSIONS pending.
 */
export async function submitPrompt(ctx: AppContext, userId: string, lang: Language, body: SubmitPromptBody): Promise<PromptSubmission> {
  const id = await ctx.db.transaction(async (tx) => {
    await lockUser(tx, userId);
    const [own] = await tx
      .select()
      .from(userQuickFunctions)
      .where(and(eq(userQuickFunctions.id, body.userQuickFunctionId), eq(userQuickFunctions.userId, userId)));
    if (!own) throw notFound();
    if (own.isGroup || !own.template.trim()) throw new AppError(Codes.BadRequest, 'promptSubmitNeedsContent');
    const [existing] = await tx.select().from(promptSubmissions).where(eq(promptSubmissions.userQuickFunctionId, own.id));
    const [pending] = await tx
      .select({ n: count() })
      .from(promptSubmissions)
      .where(and(eq(promptSubmissions.userId, userId), eq(promptSubmissions.state, 'pending'), existing ? ne(promptSubmissions.id, existing.id) : undefined));
    if ((pending?.n ?? 0) >= MAX_PENDING_PROMPT_SUBMISSIONS) {
      throw new AppError(Codes.Conflict, 'promptSubmissionsPendingTooMany', { max: MAX_PENDING_PROMPT_SUBMISSIONS });
    }
    const tagIds =
      body.tagIds ??
      (await tx.select({ tagId: userQuickFunctionTags.tagId }).from(userQuickFunctionTags).where(eq(userQuickFunctionTags.userQuickFunctionId, own.id))).map(
        (r) => r.tagId,
      );
    const fields = {
      title: body.title ?? own.name,
      description: body.description ?? own.description,
      content: own.template,
      category: own.category,
      icon: own.icon,
      appliesTo: own.appliesTo,
      language: body.language ?? lang,
      state: 'pending' as const,
      reason: '',
      submittedAt: new Date(),
    };
    const submissionId = existing?.id ?? randomUUID();
    if (existing) await tx.update(promptSubmissions).set(fields).where(eq(promptSubmissions.id, existing.id));
    else await tx.insert(promptSubmissions).values({ id: submissionId, userId, userQuickFunctionId: own.id, ...fields });
    await setSharedPromptTags(tx, submissionId, tagIds);
    return submissionId;
  });
  return (await listMySubmissions(ctx, userId)).find((s) => s.promptSubmissionId === id)!;
}

/** Takes one of the caller's submissions back, whatever its state: deleted, out of the library. */
export async function withdrawSubmission(ctx: AppContext, userId: string, id: string): Promise<void> {
  const gone = await ctx.db
    .delete(promptSubmissions)
    .where(and(eq(promptSubmissions.id, id), eq(promptSubmissions.userId, userId)))
    .returning({ id: promptSubmissions.id });
  if (gone.length === 0) throw notFound();
}

// ---- review ----

const adminColumns = { row: promptSubmissions, uses: useCount, authorName: users.userName, authorEmail: users.email };

async function adminItems(db: Db, rows: { row: Row; uses: number; authorName: string; authorEmail: string }[]): Promise<AdminPromptSubmission[]> {
  const list = await items(
    db,
    rows.map(({ row, uses }) => ({ ...row, uses })),
  );
  return list.map((item, i) => ({ ...item, authorId: rows[i]!.row.userId, authorName: rows[i]!.authorName, authorEmail: rows[i]!.authorEmail }));
}

/** The review queue: by state (pending: oldest first, as a queue; otherwise newest first) and words. */
export async function adminListSubmissions(ctx: AppContext, q: AdminPromptSubmissionListQuery): Promise<Paged<AdminPromptSubmission>> {
  const words = q.q ? `%${escapeLike(q.q)}%` : null;
  const where = and(
    q.state ? eq(promptSubmissions.state, q.state) : undefined,
    words
      ? or(
          ilike(promptSubmissions.title, words),
          ilike(promptSubmissions.description, words),
          ilike(promptSubmissions.content, words),
          ilike(users.email, words),
          ilike(users.userName, words),
        )
      : undefined,
  );
  const order = q.state === 'pending' ? [asc(promptSubmissions.submittedAt), asc(promptSubmissions.id)] : [desc(promptSubmissions.submittedAt), asc(promptSubmissions.id)];
  const [rows, totals] = await Promise.all([
    ctx.db
      .select(adminColumns)
      .from(promptSubmissions)
      .innerJoin(users, eq(users.id, promptSubmissions.userId))
      .where(where)
      .orderBy(...order)
      .limit(q.count)
      .offset((q.page - 1) * q.count),
    ctx.db.select({ n: count() }).from(promptSubmissions).innerJoin(users, eq(users.id, promptSubmissions.userId)).where(where),
  ]);
  return { list: await adminItems(ctx.db, rows), total: totals[0]?.n ?? 0 };
}

/** One submission (the audit log's before and after); null when there is none. */
export async function adminGetSubmission(ctx: AppContext, id: string): Promise<AdminPromptSubmission | null> {
  const rows = await ctx.db.select(adminColumns).from(promptSubmissions).innerJoin(users, eq(users.id, promptSubmissions.userId)).where(eq(promptSubmissions.id, id));
  return (await adminItems(ctx.db, rows))[0] ?? null;
}

type Review = {
  from: PromptSubmissionState;
  to: PromptSubmissionState;
  reason: string;
  /** The notification's key under notifications.* and whether it names the reason. */
  notice: 'promptApproved' | 'promptRejected' | 'promptUnpublished';
};

/**
 * Moves a submission from one state to the next, only from the state it must be in (a second
 * reviewer's click, or a withdrawal meanwhile, is refused rather than applied twice), and tells the
 * author in the same transaction: once per review of each submitted version (dedupe key).
 */
async function review(ctx: AppContext, reviewerId: string, id: string, r: Review): Promise<AdminPromptSubmission> {
  await announcingNotified(ctx, () =>
    ctx.db.transaction(async (tx) => {
      const now = new Date();
      const [row] = await tx
        .update(promptSubmissions)
        .set({ state: r.to, reason: r.reason, reviewedBy: reviewerId, reviewedAt: now, ...(r.to === 'approved' ? { publishedAt: now } : {}) })
        .where(and(eq(promptSubmissions.id, id), eq(promptSubmissions.state, r.from)))
        .returning();
      if (!row) {
        const [exists] = await tx.select({ id: promptSubmissions.id }).from(promptSubmissions).where(eq(promptSubmissions.id, id));
        if (!exists) throw notFound();
        throw new AppError(Codes.Conflict, r.from === 'pending' ? 'promptSubmissionNotPending' : 'promptSubmissionNotApproved');
      }
      const withReason = r.reason !== '' && r.notice !== 'promptApproved';
      await notify(tx, {
        userId: row.userId,
        kind: 'prompt',
        titleKey: `notifications.${r.notice}.title`,
        bodyKey: `notifications.${r.notice}.${withReason ? 'body_reason' : 'body'}`,
        params: { title: row.title, ...(withReason ? { reason: r.reason } : {}) },
        link: '/prompt_setting',
        dedupeKey: `${r.notice}:${row.id}:${row.submittedAt.getTime()}`,
      });
    }),
  );
  const saved = await adminGetSubmission(ctx, id);
  if (!saved) throw notFound();
  return saved;
}

export const approveSubmission = (ctx: AppContext, reviewerId: string, id: string) =>
  review(ctx, reviewerId, id, { from: 'pending', to: 'approved', reason: '', notice: 'promptApproved' });

export const rejectSubmission = (ctx: AppContext, reviewerId: string, id: string, reason: string) =>
  review(ctx, reviewerId, id, { from: 'pending', to: 'rejected', reason, notice: 'promptRejected' });

export const unpublishSubmission = (ctx: AppContext, reviewerId: string, id: string, reason = '') =>
  review(ctx, reviewerId, id, { from: 'approved', to: 'unpublished', reason, notice: 'promptUnpublished' });
