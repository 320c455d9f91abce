import { z } from 'zod';
import { LanguageSchema, PageQuerySchema } from './common.ts';

/**
 * Uninstall feedback (the /feedback page the extension opens when it is removed): why the user left.
 * The reasons are the product's fixed list; `other` comes with the user's own words.
 */
export const FEEDBACK_REASONS = ['price', 'privacy', 'inconvenient', 'freeQuota', 'betterTool', 'missingFeature', 'other'] as const;
export const FeedbackReasonSchema = z.enum(FEEDBACK_REASONS);
export type FeedbackReason = z.infer<typeof FeedbackReasonSchema>;

export const MAX_FEEDBACK_TEXT = 2000;
/** The browser the page says it runs in (shared/platform/browser.ts), or the extension's query. */
export const FeedbackBrowserSchema = z.enum(['chrome', 'edge', 'firefox', 'safari', 'unknown']);
export type FeedbackBrowser = z.infer<typeof FeedbackBrowserSchema>;

/** POST /api/System/AddFeedback. At least one reason; `other` needs its text. Works signed out. */
export const AddFeedbackBodySchema = z
  .object({
    reasons: z
      .array(FeedbackReasonSchema)
      .min(1, 'feedbackReasonRequired')
      .max(FEEDBACK_REASONS.length)
      .transform((reasons) => [...new Set(reasons)]),
    otherText: z.string().trim().max(MAX_FEEDBACK_TEXT).optional().default(''),
    browser: FeedbackBrowserSchema.optional().default('unknown'),
    /** The extension's version, from the uninstall address's query (empty when opened otherwise). */
    version: z
      .string()
      .trim()
      .max(32)
      .regex(/^[0-9A-Za-z.+-]*$/, 'feedbackVersionInvalid')
      .optional()
      .default(''),
    language: LanguageSchema.optional().default('en'),
  })
  .refine((body) => !body.reasons.includes('other') || body.otherText.length > 0, { message: 'feedbackOtherRequired', path: ['otherText'] });
export type AddFeedbackBody = z.input<typeof AddFeedbackBodySchema>;

/** One stored feedback, as operators list it. */
export const FeedbackEntrySchema = z.object({
  feedbackId: z.string(),
  reasons: z.array(FeedbackReasonSchema),
  otherText: z.string(),
  browser: FeedbackBrowserSchema,
  version: z.string(),
  language: LanguageSchema,
  /** The account when the sender was signed in; null for a visitor (most uninstalls). */
  userId: z.string().nullable(),
  createTime: z.string(),
});
export type FeedbackEntry = z.infer<typeof FeedbackEntrySchema>;

/** GET /api/admin/Feedback/GetList: newest first, optionally only those naming a reason. */
export const FeedbackListQuerySchema = PageQuerySchema.extend({ reason: FeedbackReasonSchema.optional() });
export type FeedbackListQuery = z.infer<typeof FeedbackListQuerySchema>;
