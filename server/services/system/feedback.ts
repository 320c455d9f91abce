import { randomUUID } from 'node:crypto';
import { count, desc, sql } from 'drizzle-orm';
import type { Paged } from '../../../shared/contracts/common.ts';
import {
  FeedbackBrowserSchema,
  FeedbackReasonSchema,
  type AddFeedbackBodySchema,
  type FeedbackEntry,
  type FeedbackListQuery,
} from '../../../shared/contracts/feedback.ts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { feedbacks } from '../../db/schema/feedback.ts';

/** Uninstall feedback (docs/help and the /feedback page): stored as sent, listed for operators. */

export async function addFeedback(ctx: AppContext, input: z.output<typeof AddFeedbackBodySchema>, userId: string | null): Promise<{ feedbackId: string }> {
  const id = randomUUID();
  await ctx.db.insert(feedbacks).values({
    id,
    userId,
    reasons: input.reasons,
    // The text only means something with "other".
    otherText: input.reasons.includes('other') ? input.otherText : '',
    browser: input.browser,
    version: input.version,
    language: input.language,
  });
  return { feedbackId: id };
}

export async function listFeedback(ctx: AppContext, query: FeedbackListQuery): Promise<Paged<FeedbackEntry>> {
  // jsonb containment: the reasons array holds the chosen one.
  const where = query.reason ? sql`${feedbacks.reasons} @> ${JSON.stringify([query.reason])}::jsonb` : undefined;
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(feedbacks)
      .where(where)
      .orderBy(desc(feedbacks.createdAt), desc(feedbacks.id))
      .limit(query.count)
      .offset((query.page - 1) * query.count),
    ctx.db.select({ total: count() }).from(feedbacks).where(where),
  ]);
  return {
    total,
    list: rows.map((r) => ({
      feedbackId: r.id,
      // Stored rows are read back through the contract: an older or hand-edited row cannot break the list.
      reasons: r.reasons.flatMap((reason) => (FeedbackReasonSchema.safeParse(reason).success ? [reason as FeedbackEntry['reasons'][number]] : [])),
      otherText: r.otherText,
      browser: FeedbackBrowserSchema.catch('unknown').parse(r.browser),
      version: r.version,
      language: r.language === 'zh' ? 'zh' : 'en',
      userId: r.userId,
      createTime: r.createdAt.toISOString(),
    })),
  };
}
