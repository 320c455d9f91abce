import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { pagedSchema } from '../../shared/contracts/common.ts';
import { AddFeedbackBodySchema, FeedbackEntrySchema, FeedbackListQuerySchema } from '../../shared/contracts/feedback.ts';
import { addRoute } from '../http/route.ts';
import { addFeedback, listFeedback } from '../services/system/feedback.ts';

/** Anonymous writes: a few per address and 10 minutes is plenty for a person, and bounds a flood. */
export const FEEDBACK_RATE_LIMIT = { max: 10, timeWindow: 10 * 60_000 };

/** Uninstall feedback: the /feedback page sends it (usually signed out); operators list it. */
export function registerFeedbackRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'POST',
    url: '/api/System/AddFeedback',
    auth: 'optional',
    summary:
      'Stores uninstall feedback: at least one reason (price, privacy, inconvenient, freeQuota, betterTool, missingFeature, other), with text when "other" is chosen, and the browser, extension version and language. Works signed out; rate-limited per address.',
    body: AddFeedbackBodySchema,
    data: z.object({ feedbackId: z.string() }),
    bodyLimit: 16 * 1024,
    rateLimit: FEEDBACK_RATE_LIMIT,
    handler: ({ ctx, body, user }) => addFeedback(ctx, body, user?.id ?? null),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/admin/Feedback/GetList',
    auth: 'admin',
    summary: 'Uninstall feedback, newest first, paged; `reason` keeps only those naming it.',
    query: FeedbackListQuerySchema,
    data: pagedSchema(FeedbackEntrySchema),
    handler: ({ ctx, query }) => listFeedback(ctx, query),
  });
}
