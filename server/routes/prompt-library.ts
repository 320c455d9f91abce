import type { FastifyInstance } from 'fastify';
import {
  LibraryPromptPageSchema,
  LibraryPromptSchema,
  PromptIdBodySchema,
  PromptIdQuerySchema,
  PromptListQuerySchema,
  PromptSubmissionIdBodySchema,
  PromptSubmissionListSchema,
  PromptSubmissionSchema,
  SubmitPromptBodySchema,
  UsePromptResultSchema,
} from '../../shared/contracts/prompt-library.ts';
import { UserQuickFunctionSchema } from '../../shared/contracts/quick-function.ts';
import { addRoute } from '../http/route.ts';
import { copyPromptToMine, getLibraryPrompt, listLibraryPrompts, usePrompt } from '../services/prompts/prompt-library.ts';
import { listMySubmissions, submitPrompt, withdrawSubmission } from '../services/prompts/prompt-submissions.ts';

/** The prompt library (Prompt) and sharing one's own prompts to it (UserPrompt): docs/api.md#prompt-library. */
export function registerPromptLibraryRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/Prompt/GetPromptList',
    auth: 'public',
    summary:
      "One page of the prompt library in `language` (default: the caller's accept-language): the operators' online recommended prompts and the community's approved ones; by `tagId`, words `q` (title, description, content), `source` (all, recommended, community); `sort` popular (most used) or new.",
    query: PromptListQuerySchema,
    data: LibraryPromptPageSchema,
    handler: ({ ctx, query, lang }) => listLibraryPrompts(ctx, lang, query),
  });
  addRoute(app, {
    method: 'GET',
    url: '/api/Prompt/GetPromptById',
    auth: 'public',
    summary: 'One prompt of the library (a recommended prompt or an approved community prompt); 10404 when it is hidden, waiting for review or unknown.',
    query: PromptIdQuerySchema,
    data: LibraryPromptSchema,
    handler: ({ ctx, query }) => getLibraryPrompt(ctx, query.promptId),
  });
  addRoute(app, {
    method: 'POST',
    url: '/api/Prompt/UsePrompt',
    auth: 'user',
    summary: "Counts a use of a library prompt by the caller: at most once per user, prompt and day (UTC); the counts order the library's popular sort.",
    body: PromptIdBodySchema,
    data: UsePromptResultSchema,
    handler: ({ ctx, user, body }) => usePrompt(ctx, user.id, body.promptId),
  });
  addRoute(app, {
    method: 'POST',
    url: '/api/Prompt/CopyToMine',
    auth: 'user',
    summary: "Copies a library prompt into the caller's own prompts (a user quick function, with its tags), which they may then change; counts toward the limit of 200.",
    body: PromptIdBodySchema,
    data: UserQuickFunctionSchema,
    handler: ({ ctx, user, body }) => copyPromptToMine(ctx, user.id, body.promptId),
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/UserPrompt/Submit',
    auth: 'user',
    summary:
      "Shares one of the caller's own prompts to the community library: a snapshot of its content with a title, description, tags and language (defaults: the own prompt's, the caller's language), waiting for review. Submitting the same prompt again replaces it and puts it back to pending. At most 5 pending at once (10409).",
    body: SubmitPromptBodySchema,
    data: PromptSubmissionSchema,
    handler: ({ ctx, user, lang, body }) => submitPrompt(ctx, user.id, lang, body),
  });
  addRoute(app, {
    method: 'GET',
    url: '/api/UserPrompt/GetMySubmissions',
    auth: 'user',
    summary: "The caller's shared prompts, newest first, each with its state (pending, approved, rejected, unpublished), the reviewer's reason and its use count.",
    data: PromptSubmissionListSchema,
    handler: ({ ctx, user }) => listMySubmissions(ctx, user.id),
  });
  addRoute(app, {
    method: 'POST',
    url: '/api/UserPrompt/Withdraw',
    auth: 'user',
    summary: "Takes back one of the caller's shared prompts, whatever its state: deleted, and out of the library. Another user's answers 10404.",
    body: PromptSubmissionIdBodySchema,
    handler: ({ ctx, user, body }) => withdrawSubmission(ctx, user.id, body.promptSubmissionId),
  });
}
