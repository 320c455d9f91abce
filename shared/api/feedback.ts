import type { AddFeedbackBody } from '../contracts/feedback.ts';
import { apiPost } from './request.ts';

/** Sends uninstall feedback (works signed out). */
export function addFeedback(body: AddFeedbackBody): Promise<{ feedbackId: string }> {
  return apiPost('/api/System/AddFeedback', body);
}
