import type { ServerResponse } from 'node:http';
import type { LibraryPrompt, PromptSubmission } from '../../../shared/contracts/prompt-library.ts';
import { SubmitPromptBodySchema } from '../../../shared/contracts/prompt-library.ts';
import type { PromptTag } from '../../../shared/contracts/prompt-tag.ts';
import {
  QuickFunctionExportSchema,
  SaveUserQuickFunctionBodySchema,
  type RecommendedPrompt,
  type UserQuickFunction,
} from '../../../shared/contracts/quick-function.ts';
import { answer, fakeApi, type Route } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { testModel } from '../../helpers/models.ts';
import { own } from './fake-quick-functions.ts';

/** The messages the server answers bad input with (as the real one does, in English). */
const MESSAGES: Record<string, string> = {
  promptNameRequired: 'Please enter a name for the prompt',
  promptContentRequired: 'Please enter the prompt content',
  promptAppliesToRequired: 'Please choose where the prompt applies',
};

/** The operator's tags as GetTagPromptList answers them in English ('Empty' carries no prompt). */
export const TAGS: PromptTag[] = [
  { tagPromptId: 'tag-writing', name: 'Writing', sort: 10, promptCount: 1 },
  { tagPromptId: 'tag-code', name: 'Code', sort: 20, promptCount: 1 },
  { tagPromptId: 'tag-empty', name: 'Empty', sort: 30, promptCount: 0 },
];

export const RECOMMENDED: RecommendedPrompt[] = [
  { aiPrompWordId: 'r1', title: 'Proofread', content: 'Proofread {selection} and list the changes.', category: 'style', icon: '🔍', sort: 0, tags: [{ tagPromptId: 'tag-writing', name: 'Writing' }] },
  { aiPrompWordId: 'r2', title: 'Code review', content: 'Review this code: {input}', category: 'scoped', icon: '🧑‍💻', sort: 1, tags: [{ tagPromptId: 'tag-code', name: 'Code' }] },
];

/** Approved community prompts as GetPromptList answers them (source community), most used first. */
export const COMMUNITY: LibraryPrompt[] = [
  {
    promptId: 'c1',
    source: 'community',
    title: 'Tweet thread',
    description: 'Turns notes into a thread',
    content: 'Write a tweet thread from {input}',
    category: 'style',
    icon: '🧵',
    language: 'en',
    tags: [{ tagPromptId: 'tag-writing', name: 'Writing' }],
    authorName: 'Ada',
    useCount: 12,
    publishTime: '2026-01-02T00:00:00.000Z',
  },
  {
    promptId: 'c2',
    source: 'community',
    title: 'SQL explain',
    description: '',
    content: 'Explain this query: {selection}',
    category: 'scoped',
    icon: '',
    language: 'en',
    tags: [{ tagPromptId: 'tag-code', name: 'Code' }],
    authorName: 'Lin',
    useCount: 1,
    publishTime: '2026-01-03T00:00:00.000Z',
  },
];

/**
 * The prompt routes of the API over an in-memory list of the user's own, checked with the real
 * contracts: what the settings page sends is what the server would accept.
 */
export function fakePromptsApi(initial: UserQuickFunction[] = []) {
  const state = {
    items: [...initial],
    imported: [] as unknown[],
    next: 100,
    refuseSave: null as string | null,
    submissions: [] as PromptSubmission[],
    /** A refusal Submit answers with (10409), as the server does past the pending limit. */
    refuseSubmit: null as string | null,
    uses: [] as string[],
  };
  const body = (raw: string) => JSON.parse(raw) as Record<string, unknown>;
  const bad = (res: ServerResponse, msg: string) => sendEnvelope(res, { Code: 10400, Msg: msg });
  const save: Route = (req, res) => {
    if (state.refuseSave) return bad(res, state.refuseSave);
    const parsed = SaveUserQuickFunctionBodySchema.safeParse(body(req.body));
    if (!parsed.success) return bad(res, MESSAGES[parsed.error.issues[0].message] ?? parsed.error.issues[0].message);
    const { userQuickFunctionId, ...fields } = parsed.data;
    const existing = state.items.find((i) => i.userQuickFunctionId === userQuickFunctionId);
    const { tagIds, ...rest } = fields;
    const tags = { tagIds: tagIds ?? existing?.tagIds ?? [] };
    const saved: UserQuickFunction = existing
      ? { ...existing, ...rest, ...tags }
      : own(`own-${++state.next}`, fields.name, { ...rest, ...tags, sort: state.items.length });
    state.items = existing ? state.items.map((i) => (i === existing ? saved : i)) : [...state.items, saved];
    sendEnvelope(res, { Code: 10000, Data: saved });
  };
  const handler = fakeApi({
    '/api/Chat/GetModelListAll': answer([testModel('basic', 1), testModel('smart', 2), testModel('super', 3, { locked: true })]),
    '/api/QuickFunction/GetUserQuickFunctionList': (_req, res) => sendEnvelope(res, { Code: 10000, Data: state.items }),
    '/api/QuickFunction/SaveUserQuickFunction': save,
    '/api/QuickFunction/DeleteUserQuickFunction': (req, res) => {
      const id = body(req.body).userQuickFunctionId;
      state.items = state.items.filter((i) => i.userQuickFunctionId !== id).map((i) => (i.parentId === id ? { ...i, parentId: null } : i));
      sendEnvelope(res, { Code: 10000, Data: null });
    },
    '/api/QuickFunction/OnlineUserQuickFunction': (req, res) => {
      const { userQuickFunctionId, online } = body(req.body) as { userQuickFunctionId: string; online: boolean };
      state.items = state.items.map((i) => (i.userQuickFunctionId === userQuickFunctionId ? { ...i, online } : i));
      sendEnvelope(res, { Code: 10000, Data: null });
    },
    '/api/QuickFunction/SortUserQuickFunction': (req, res) => {
      const ids = body(req.body).ids as string[];
      state.items = state.items.map((i) => ({ ...i, sort: ids.indexOf(i.userQuickFunctionId) }));
      sendEnvelope(res, { Code: 10000, Data: null });
    },
    '/api/QuickFunction/GroupUserQuickFunction': (req, res) => {
      const { userQuickFunctionId, parentId } = body(req.body) as { userQuickFunctionId: string; parentId: string | null };
      state.items = state.items.map((i) => (i.userQuickFunctionId === userQuickFunctionId ? { ...i, parentId } : i));
      sendEnvelope(res, { Code: 10000, Data: null });
    },
    '/api/QuickFunction/ExportUserQuickFunction': (_req, res) =>
      sendEnvelope(res, { Code: 10000, Data: { version: 1, items: state.items.map((i) => ({ key: i.userQuickFunctionId, name: i.name, template: i.template, appliesTo: i.appliesTo })) } }),
    '/api/QuickFunction/ImportUserQuickFunction': (req, res) => {
      const parsed = QuickFunctionExportSchema.safeParse(body(req.body));
      if (!parsed.success) return bad(res, 'bad import');
      state.imported.push(parsed.data);
      sendEnvelope(res, { Code: 10000, Data: { imported: parsed.data.items.length } });
    },
    '/api/TagPrompt/GetTagPromptList': answer(TAGS),
    // As the server filters the community's prompts: by tag, words and order.
    '/api/Prompt/GetPromptList': (_req, res, url) => {
      const tagId = url.searchParams.get('tagId');
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const list = COMMUNITY.filter((p) => (!tagId || p.tags.some((tag) => tag.tagPromptId === tagId)) && (!q || `${p.title} ${p.content}`.toLowerCase().includes(q)));
      if (url.searchParams.get('sort') === 'new') list.sort((a, b) => b.publishTime.localeCompare(a.publishTime));
      sendEnvelope(res, { Code: 10000, Data: { list, total: list.length } });
    },
    '/api/Prompt/UsePrompt': (req, res) => {
      state.uses.push(body(req.body).promptId as string);
      sendEnvelope(res, { Code: 10000, Data: { counted: true, useCount: 1 } });
    },
    '/api/Prompt/CopyToMine': (req, res) => {
      const prompt = COMMUNITY.find((p) => p.promptId === body(req.body).promptId)!;
      const saved = own(`own-${++state.next}`, prompt.title, { template: prompt.content, tagIds: prompt.tags.map((tag) => tag.tagPromptId), sort: state.items.length });
      state.items = [...state.items, saved];
      sendEnvelope(res, { Code: 10000, Data: saved });
    },
    '/api/UserPrompt/GetMySubmissions': (_req, res) => sendEnvelope(res, { Code: 10000, Data: state.submissions }),
    '/api/UserPrompt/Submit': (req, res) => {
      if (state.refuseSubmit) return sendEnvelope(res, { Code: 10409, Msg: state.refuseSubmit });
      const parsed = SubmitPromptBodySchema.safeParse(body(req.body));
      if (!parsed.success) return bad(res, parsed.error.issues[0].message);
      const item = state.items.find((i) => i.userQuickFunctionId === parsed.data.userQuickFunctionId)!;
      const submission: PromptSubmission = {
        promptSubmissionId: `s-${item.userQuickFunctionId}`,
        userQuickFunctionId: item.userQuickFunctionId,
        title: parsed.data.title ?? item.name,
        description: parsed.data.description ?? item.description,
        content: item.template,
        category: item.category,
        icon: item.icon,
        appliesTo: item.appliesTo,
        language: parsed.data.language ?? 'en',
        tags: TAGS.filter((tag) => (parsed.data.tagIds ?? []).includes(tag.tagPromptId)).map(({ tagPromptId, name }) => ({ tagPromptId, name })),
        state: 'pending',
        reason: '',
        useCount: 0,
        submitTime: new Date().toISOString(),
        reviewTime: null,
      };
      state.submissions = [submission, ...state.submissions.filter((s) => s.promptSubmissionId !== submission.promptSubmissionId)];
      sendEnvelope(res, { Code: 10000, Data: submission });
    },
    '/api/UserPrompt/Withdraw': (req, res) => {
      state.submissions = state.submissions.filter((s) => s.promptSubmissionId !== body(req.body).promptSubmissionId);
      sendEnvelope(res, { Code: 10000, Data: null });
    },
    // As the server filters: with tagId, only the prompts carrying it.
    '/api/AiPrompWord/GetAiPrompWordByRecomment': (_req, res, url) => {
      const tagId = url.searchParams.get('tagId');
      sendEnvelope(res, { Code: 10000, Data: RECOMMENDED.filter((p) => !tagId || p.tags.some((tag) => tag.tagPromptId === tagId)) });
    },
  });
  return { handler, state };
}
