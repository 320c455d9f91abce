import type { FastifyInstance } from 'fastify';
import {
  AdminPromptSubmissionListQuerySchema,
  AdminPromptSubmissionPageSchema,
  AdminPromptSubmissionSchema,
  AdminRejectPromptBodySchema,
  AdminUnpublishPromptBodySchema,
  PromptSubmissionIdBodySchema,
} from '../../../shared/contracts/prompt-library.ts';
import { addRoute } from '../../http/route.ts';
import {
  adminGetSubmission,
  adminListSubmissions,
  approveSubmission,
  rejectSubmission,
  unpublishSubmission,
} from '../../services/prompts/prompt-submissions.ts';

/** Operators review the prompts users share to the library (docs/api.md#prompt-library). */
export function registerAdminPromptLibraryRoutes(app: FastifyInstance): void {
  const base = '/api/admin/UserPrompt';
  const audit = { target: 'promptSubmission', id: ({ body }: { body: { promptSubmissionId: string } }) => body.promptSubmissionId, load: adminGetSubmission };
  addRoute(app, {
    method: 'GET',
    url: `${base}/GetList`,
    auth: 'admin',
    summary: "Shared prompts by `state` (pending: oldest first, the review queue; otherwise newest first) and words `q` (text, or the author's e-mail or nickname).",
    query: AdminPromptSubmissionListQuerySchema,
    data: AdminPromptSubmissionPageSchema,
    handler: ({ ctx, query }) => adminListSubmissions(ctx, query),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Approve`,
    auth: 'admin',
    audit,
    summary: 'Approves a pending shared prompt: it shows in the library of its language; the author is notified. Not pending: 10409.',
    body: PromptSubmissionIdBodySchema,
    data: AdminPromptSubmissionSchema,
    handler: ({ ctx, user, body }) => approveSubmission(ctx, user.id, body.promptSubmissionId),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Unpublish`,
    auth: 'admin',
    audit,
    summary: 'Takes an approved shared prompt out of the library, with an optional reason the author is told. Not approved: 10409.',
    body: AdminUnpublishPromptBodySchema,
    data: AdminPromptSubmissionSchema,
    handler: ({ ctx, user, body }) => unpublishSubmission(ctx, user.id, body.promptSubmissionId, body.reason),
  });
  addRoute(app, {
    method: 'POST',
    url: `${base}/Reject`,
    auth: 'admin',
    audit,
    summary: 'Rejects a pending shared prompt with a reason (required, at most 300 characters) the author sees and is notified of. Not pending: 10409.',
    body: AdminRejectPromptBodySchema,
    data: AdminPromptSubmissionSchema,
    handler: ({ ctx, user, body }) => rejectSubmission(ctx, user.id, body.promptSubmissionId, body.reason),
  });
}
