import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminPromptSubmission, LibraryPrompt, PromptSubmission } from '../../shared/contracts/prompt-library.ts';
import { MAX_PENDING_PROMPT_SUBMISSIONS } from '../../shared/contracts/prompt-library.ts';
import type { AdminPromptTag } from '../../shared/contracts/prompt-tag.ts';
import type { UserQuickFunction } from '../../shared/contracts/quick-function.ts';
import { useTestAppWithAdmin } from '../helpers/app.ts';
import { api, type Envelope } from '../helpers/api.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

// One app for the file: each test makes the users and prompts it reads, with words of its own.
const { t, admin } = useTestAppWithAdmin({ AUTH_RATE_LIMIT: '1000' });
let tag: AdminPromptTag;
beforeAll(async () => {
  tag = (await api(t.app, admin).postBody('/api/admin/TagPrompt/Save', { nameEn: 'Library writing', nameZh: '库写作' })).Data;
});

type Page = { list: LibraryPrompt[]; total: number };

const ownPrompt = async (user: TestUser, name: string, template = `Rewrite {selection} as ${name}`) => {
  const res = await api(t.app, user).postBody('/api/QuickFunction/SaveUserQuickFunction', { name, template, appliesTo: ['selection'], description: `About ${name}` });
  expect(res.Code).toBe(10000);
  return res.Data as UserQuickFunction;
};
const submit = (user: TestUser, body: Record<string, unknown>, lang = 'en') =>
  api(t.app, user).postBody('/api/UserPrompt/Submit', body, { lang }) as Promise<Envelope<PromptSubmission>>;
const mine = async (user: TestUser) => (await api(t.app, user).getBody('/api/UserPrompt/GetMySubmissions')).Data as PromptSubmission[];
const library = async (query: string, who?: TestUser, lang = 'en') => (await api(t.app, who).getBody(`/api/Prompt/GetPromptList?${query}`, { lang })).Data as Page;
const review = (action: 'Approve' | 'Reject' | 'Unpublish', body: Record<string, unknown>, who: TestUser = admin) =>
  api(t.app, who).postBody(`/api/admin/UserPrompt/${action}`, body) as Promise<Envelope<AdminPromptSubmission>>;
const notifications = async (user: TestUser) =>
  (await api(t.app, user).getBody('/api/UserNotification/GetList?page=1&count=50')).Data.list as { titleKey: string; bodyKey: string; params: Record<string, string>; link: string }[];

describe('sharing a prompt to the library', () => {
  it('is pending (not in the library) until approved; then others see it with its tags, language and author', async () => {
    const author = await createUser(t.app);
    const reader = await createUser(t.app);
    const own = await ownPrompt(author, 'Otter tone');
    const sent = await submit(author, { userQuickFunctionId: own.userQuickFunctionId, title: 'Otter tone', description: 'Talks like an otter', tagIds: [tag.tagPromptId], language: 'zh' });
    expect(sent.Code).toBe(10000);
    expect(sent.Data).toMatchObject({ state: 'pending', language: 'zh', content: own.template, reason: '', reviewTime: null });
    expect(sent.Data.tags).toEqual([{ tagPromptId: tag.tagPromptId, name: '库写作' }]);
    const id = sent.Data.promptSubmissionId;

    expect((await library('q=otter%20tone&source=community', reader, 'zh')).list).toEqual([]);
    expect((await api(t.app, reader).getBody(`/api/Prompt/GetPromptById?promptId=${id}`)).Code).toBe(10404);

    const approved = await review('Approve', { promptSubmissionId: id });
    expect(approved.Code).toBe(10000);
    expect(approved.Data).toMatchObject({ state: 'approved', authorId: author.userId, authorEmail: author.email });

    const zh = await library(`q=otter%20tone&tagId=${tag.tagPromptId}`, reader, 'zh');
    expect(zh.total).toBe(1);
    expect(zh.list[0]).toMatchObject({ promptId: id, source: 'community', title: 'Otter tone', description: 'Talks like an otter', language: 'zh', useCount: 0 });
    expect(zh.list[0]!.authorName).toEqual(expect.any(String));
    expect(zh.list[0]!.tags).toEqual([{ tagPromptId: tag.tagPromptId, name: '库写作' }]);
    // Another language's readers do not see it; signed-out readers do.
    expect((await library('q=otter%20tone', reader, 'en')).total).toBe(0);
    expect((await library('q=otter%20tone&language=zh')).total).toBe(1);
    expect((await api(t.app).getBody(`/api/Prompt/GetPromptById?promptId=${id}`)).Data).toMatchObject({ promptId: id, source: 'community' });

    expect(await notifications(author)).toContainEqual(
      expect.objectContaining({ titleKey: 'notifications.promptApproved.title', params: expect.objectContaining({ title: 'Otter tone' }), link: '/prompt_setting' }),
    );
    const log = (await api(t.app, admin).getBody(`/api/admin/AuditLog/GetList?page=1&count=20&targetType=promptSubmission&targetId=${id}`)).Data.list;
    expect(log.map((e: { before: { state: string }; after: { state: string } }) => [e.before.state, e.after.state])).toContainEqual(['pending', 'approved']);
  });

  it('a rejection needs a reason; the author sees it and is notified; a decided one cannot be decided again', async () => {
    const author = await createUser(t.app);
    const own = await ownPrompt(author, 'Badger brief');
    const id = (await submit(author, { userQuickFunctionId: own.userQuickFunctionId })).Data.promptSubmissionId;
    const noReason = await review('Reject', { promptSubmissionId: id }, admin);
    expect(noReason.Code).toBe(10400);
    expect(noReason.Msg).toMatch(/reason/i);
    expect((await review('Reject', { promptSubmissionId: id, reason: '   ' })).Code).toBe(10400);
    expect((await review('Reject', { promptSubmissionId: id, reason: 'x'.repeat(301) })).Code).toBe(10400);

    expect((await review('Reject', { promptSubmissionId: id, reason: 'Too short to be useful' })).Data.state).toBe('rejected');
    expect((await mine(author)).find((s) => s.promptSubmissionId === id)).toMatchObject({ state: 'rejected', reason: 'Too short to be useful' });
    expect(await notifications(author)).toContainEqual(
      expect.objectContaining({ titleKey: 'notifications.promptRejected.title', bodyKey: 'notifications.promptRejected.body_reason', params: { title: 'Badger brief', reason: 'Too short to be useful' } }),
    );
    expect((await review('Approve', { promptSubmissionId: id })).Code).toBe(10409);
    expect((await review('Unpublish', { promptSubmissionId: id })).Code).toBe(10409);
    expect((await review('Approve', { promptSubmissionId: 'no-such-submission' })).Code).toBe(10404);
  });

  it('an edit (submitting again) puts an approved prompt back to pending and out of the library', async () => {
    const author = await createUser(t.app);
    const own = await ownPrompt(author, 'Heron haiku');
    const id = (await submit(author, { userQuickFunctionId: own.userQuickFunctionId })).Data.promptSubmissionId;
    await review('Approve', { promptSubmissionId: id });
    expect((await library('q=heron%20haiku')).total).toBe(1);

    await api(t.app, author).postBody('/api/QuickFunction/SaveUserQuickFunction', { ...own, template: 'Write a haiku about {selection}, with herons' });
    const again = await submit(author, { userQuickFunctionId: own.userQuickFunctionId, title: 'Heron haiku 2' });
    expect(again.Data).toMatchObject({ promptSubmissionId: id, state: 'pending', title: 'Heron haiku 2', content: 'Write a haiku about {selection}, with herons' });
    expect((await library('q=heron%20haiku')).total).toBe(0);
    expect(await mine(author)).toHaveLength(1);

    await review('Approve', { promptSubmissionId: id });
    expect((await library('q=heron%20haiku')).list[0]).toMatchObject({ title: 'Heron haiku 2' });
    // Unpublished by an operator: out of the library, the author told.
    expect((await review('Unpublish', { promptSubmissionId: id, reason: 'Duplicate' })).Data.state).toBe('unpublished');
    expect((await library('q=heron%20haiku')).total).toBe(0);
    expect((await notifications(author)).some((n) => n.titleKey === 'notifications.promptUnpublished.title')).toBe(true);
  });

  it('the author withdraws their own; another user cannot', async () => {
    const author = await createUser(t.app);
    const other = await createUser(t.app);
    const own = await ownPrompt(author, 'Lynx list');
    const id = (await submit(author, { userQuickFunctionId: own.userQuickFunctionId })).Data.promptSubmissionId;
    await review('Approve', { promptSubmissionId: id });
    expect((await api(t.app, other).postBody('/api/UserPrompt/Withdraw', { promptSubmissionId: id })).Code).toBe(10404);
    expect((await library('q=lynx%20list')).total).toBe(1);
    expect((await api(t.app, author).postBody('/api/UserPrompt/Withdraw', { promptSubmissionId: id })).Code).toBe(10000);
    expect((await library('q=lynx%20list')).total).toBe(0);
    expect(await mine(author)).toEqual([]);
    // Nor may another user submit my prompt.
    expect((await submit(other, { userQuickFunctionId: own.userQuickFunctionId })).Code).toBe(10404);
  });

  it('refuses more than the pending limit, a group, and bad text, with clear messages', async () => {
    const author = await createUser(t.app);
    const owns = [];
    for (let i = 0; i <= MAX_PENDING_PROMPT_SUBMISSIONS; i++) owns.push(await ownPrompt(author, `Limit ${i}`));
    const answers = await Promise.all(owns.map((own) => submit(author, { userQuickFunctionId: own.userQuickFunctionId })));
    expect(answers.filter((a) => a.Code === 10000)).toHaveLength(MAX_PENDING_PROMPT_SUBMISSIONS);
    const refused = answers.find((a) => a.Code !== 10000)!;
    expect(refused.Code).toBe(10409);
    expect(refused.Msg).toContain(`${MAX_PENDING_PROMPT_SUBMISSIONS}`);
    // Submitting a pending one again is an edit, not one more.
    expect((await submit(author, { userQuickFunctionId: answers.find((a) => a.Code === 10000)!.Data.userQuickFunctionId, title: 'Edited' })).Code).toBe(10000);
    const zh = await submit(author, { userQuickFunctionId: owns.find((o) => !answers.some((a) => a.Data?.userQuickFunctionId === o.userQuickFunctionId))!.userQuickFunctionId }, 'zh');
    expect(zh.Code).toBe(10409);
    expect(zh.Msg).toMatch(/审核/);

    const other = await createUser(t.app);
    const group = (await api(t.app, other).postBody('/api/QuickFunction/SaveUserQuickFunction', { name: 'Group', isGroup: true, appliesTo: ['selection'] })).Data as UserQuickFunction;
    expect((await submit(other, { userQuickFunctionId: group.userQuickFunctionId })).Code).toBe(10400);
    const own = await ownPrompt(other, 'Texty');
    expect((await submit(other, { userQuickFunctionId: own.userQuickFunctionId, title: 'x'.repeat(61) })).Code).toBe(10400);
    expect((await submit(other, { userQuickFunctionId: own.userQuickFunctionId, description: 'x'.repeat(301) })).Code).toBe(10400);
    expect((await submit(other, { userQuickFunctionId: own.userQuickFunctionId, tagIds: ['no-such-tag'] })).Code).toBe(10400);
    expect(await mine(other)).toEqual([]);
    expect((await api(t.app).postBody('/api/UserPrompt/Submit', { userQuickFunctionId: own.userQuickFunctionId })).Code).toBe(10402);
  });

  it('a user who is not an operator cannot review or list the queue', async () => {
    const user = await createUser(t.app);
    const own = await ownPrompt(user, 'Self approval');
    const id = (await submit(user, { userQuickFunctionId: own.userQuickFunctionId })).Data.promptSubmissionId;
    expect((await review('Approve', { promptSubmissionId: id }, user)).Code).toBe(10403);
    expect((await review('Reject', { promptSubmissionId: id, reason: 'no' }, user)).Code).toBe(10403);
    expect((await api(t.app, user).getBody('/api/admin/UserPrompt/GetList?state=pending')).Code).toBe(10403);
    const queue = (await api(t.app, admin).getBody(`/api/admin/UserPrompt/GetList?state=pending&q=${encodeURIComponent(user.email)}`)).Data;
    expect(queue.list.map((s: AdminPromptSubmission) => s.promptSubmissionId)).toEqual([id]);
  });
});

describe('races (run on PostgreSQL too: tests/database-behaviour.txt)', () => {
  it('two reviewers deciding at once: one decision, one notification; uses of one user at once count once', async () => {
    const author = await createUser(t.app);
    const own = await ownPrompt(author, 'Race review');
    const id = (await submit(author, { userQuickFunctionId: own.userQuickFunctionId })).Data.promptSubmissionId;
    const answers = await Promise.all([review('Approve', { promptSubmissionId: id }), review('Reject', { promptSubmissionId: id, reason: 'Late' }), review('Approve', { promptSubmissionId: id })]);
    expect(answers.map((a) => a.Code).sort()).toEqual([10000, 10409, 10409]);
    const told = (await notifications(author)).filter((n) => /promptApproved|promptRejected/.test(n.titleKey));
    expect(told).toHaveLength(1);

    const approved = answers.find((a) => a.Code === 10000)!.Data.state === 'approved';
    if (!approved) await submit(author, { userQuickFunctionId: own.userQuickFunctionId }).then(() => review('Approve', { promptSubmissionId: id }));
    const reader = await createUser(t.app);
    const uses = await Promise.all(Array.from({ length: 6 }, () => api(t.app, reader).postBody('/api/Prompt/UsePrompt', { promptId: id })));
    expect(uses.filter((u) => u.Data.counted)).toHaveLength(1);
    expect((await api(t.app).getBody(`/api/Prompt/GetPromptById?promptId=${id}`)).Data.useCount).toBe(1);
  });
});

describe('the library', () => {
  it('lists recommended prompts beside community ones; counts a use once per user per day; popular follows uses', async () => {
    const author = await createUser(t.app);
    const readers = [await createUser(t.app), await createUser(t.app)];
    const ids: string[] = [];
    for (const name of ['Quokka quip one', 'Quokka quip two']) {
      const own = await ownPrompt(author, name);
      const id = (await submit(author, { userQuickFunctionId: own.userQuickFunctionId })).Data.promptSubmissionId;
      await review('Approve', { promptSubmissionId: id });
      ids.push(id);
    }
    // The newer first when sorted by new; the more used first when popular.
    expect((await library('q=quokka%20quip&sort=new')).list.map((p) => p.promptId)).toEqual([ids[1], ids[0]]);
    const first = await api(t.app, readers[0]).postBody('/api/Prompt/UsePrompt', { promptId: ids[0] });
    expect(first.Data).toEqual({ counted: true, useCount: 1 });
    expect((await api(t.app, readers[0]).postBody('/api/Prompt/UsePrompt', { promptId: ids[0] })).Data).toEqual({ counted: false, useCount: 1 });
    expect((await api(t.app, readers[1]).postBody('/api/Prompt/UsePrompt', { promptId: ids[0] })).Data).toEqual({ counted: true, useCount: 2 });
    const popular = await library('q=quokka%20quip&sort=popular');
    expect(popular.list.map((p) => [p.promptId, p.useCount])).toEqual([
      [ids[0], 2],
      [ids[1], 0],
    ]);
    expect((await api(t.app).postBody('/api/Prompt/UsePrompt', { promptId: ids[0] })).Code).toBe(10402);
    expect((await api(t.app, readers[0]).postBody('/api/Prompt/UsePrompt', { promptId: 'no-such-prompt' })).Code).toBe(10404);

    // The seeded recommended prompts are there too, and a source filter keeps one kind.
    const all = await library('count=100');
    expect(all.list.some((p) => p.source === 'recommended')).toBe(true);
    expect(all.list.some((p) => p.source === 'community')).toBe(true);
    expect((await library('source=recommended&count=100')).list.every((p) => p.source === 'recommended' && p.authorName === null)).toBe(true);
    const paged = await library('count=1&page=2');
    expect(paged.list).toHaveLength(1);
    expect(paged.total).toBe(all.total);
  });

  it('copies a library prompt into the own prompts, with its tags', async () => {
    const author = await createUser(t.app);
    const reader = await createUser(t.app);
    const own = await ownPrompt(author, 'Wombat words');
    const id = (await submit(author, { userQuickFunctionId: own.userQuickFunctionId, tagIds: [tag.tagPromptId] })).Data.promptSubmissionId;
    expect((await api(t.app, reader).postBody('/api/Prompt/CopyToMine', { promptId: id })).Code).toBe(10404);
    await review('Approve', { promptSubmissionId: id });
    const copy = await api(t.app, reader).postBody('/api/Prompt/CopyToMine', { promptId: id });
    expect(copy.Code).toBe(10000);
    expect(copy.Data).toMatchObject({ name: 'Wombat words', template: own.template, appliesTo: ['selection'], tagIds: [tag.tagPromptId], online: true });
    const list = (await api(t.app, reader).getBody('/api/QuickFunction/GetUserQuickFunctionList')).Data as UserQuickFunction[];
    expect(list.map((i) => i.userQuickFunctionId)).toEqual([copy.Data.userQuickFunctionId]);

    const recommended = (await library('source=recommended')).list[0]!;
    const fromRecommended = await api(t.app, reader).postBody('/api/Prompt/CopyToMine', { promptId: recommended.promptId });
    expect(fromRecommended.Data).toMatchObject({ name: recommended.title, template: recommended.content });
    // The author deleting their own prompt leaves the shared copy in the library.
    await api(t.app, author).postBody('/api/QuickFunction/DeleteUserQuickFunction', { userQuickFunctionId: own.userQuickFunctionId });
    expect((await api(t.app).getBody(`/api/Prompt/GetPromptById?promptId=${id}`)).Code).toBe(10000);
    expect((await mine(author))[0]).toMatchObject({ promptSubmissionId: id, userQuickFunctionId: null });
  });

  it('refuses bad queries with 10400', async () => {
    expect((await api(t.app).getBody(`/api/Prompt/GetPromptList?sort=best`)).Code).toBe(10400);
    expect((await api(t.app).getBody(`/api/Prompt/GetPromptList?q=${'x'.repeat(101)}`)).Code).toBe(10400);
    expect((await api(t.app).getBody(`/api/Prompt/GetPromptList?q=${encodeURIComponent('100%_\\')}`)).Data).toEqual({ list: [], total: 0 });
  });
});
