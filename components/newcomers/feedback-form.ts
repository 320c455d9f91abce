import { FEEDBACK_REASONS, type FeedbackReason } from '../../shared/contracts/feedback.ts';

/** The form's state: the reasons ticked and the words for "other". */
export interface FeedbackForm {
  reasons: FeedbackReason[];
  otherText: string;
}

export type FeedbackFormError = 'reasonRequired' | 'otherRequired' | null;

/** The form's rule (as the server's): at least one reason; "other" needs its text. */
export function validateFeedback(form: FeedbackForm): FeedbackFormError {
  if (form.reasons.length === 0) return 'reasonRequired';
  if (form.reasons.includes('other') && !form.otherText.trim()) return 'otherRequired';
  return null;
}

/** Reasons in the product's order, whatever order they were ticked in. */
export function orderedReasons(reasons: readonly FeedbackReason[]): FeedbackReason[] {
  return FEEDBACK_REASONS.filter((r) => reasons.includes(r));
}
