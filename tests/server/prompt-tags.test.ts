import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminPromptTag, PromptTag } from '../../shared/contracts/prompt-tag.ts';
import type { RecommendedPrompt, UserQuickFunction } from '../../shared/contracts/quick-function.ts';
import { useTestAppWithAdmin } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

// One app for the file: each describe makes the tags and prompts it reads, with names of its own.
const { t, admin } = useTestAppWithAdmin({ AUTH_RATE_LIMIT: '1000' });
let user: TestUser;
beforeAll(async () => {
  user = await createUser(t.app);
});

const saveTag = (body: Record<string, unknown>, lang = 'en') => api(t.app, admin).postBody('/api/admin/TagPrompt/Save', body, { lang });
const adminTags = async () => (await api(t.app, admin).getBody('/api/admin/TagPrompt/GetList')).Data as AdminPromptTag[];
const newTag = async (nameEn: string, nameZh: string, sort?: number) => {
  const res = await saveTag({ nameEn, nameZh, sort });
  expect(res.Code).toBe(10000);
  return res.Data as AdminPromptTag;
};
const savePrompt = async (body: Record<string, unknown>) => {
  const res = await api(t.app, admin).postBody('/api/admin/AiPrompWord/Save', { language: 'en', content: 'Do {input}', ...body });
  expect(res.Code).toBe(10000);
  return res.Data as RecommendedPrompt & { language: string };
};
const library = async (query = '', lang = 'en', path = '/api/AiPrompWord') =>
  (await api(t.app).getBody(`${path}/GetAiPrompWordByRecomment${query}`, { lang })) as { Code: number; Data: RecommendedPrompt[] };
const publicTags = async (query = '', lang = 'en') => (await api(t.app).getBody(`/api/TagPrompt/GetTagPromptList${query}`, { lang })).Data as PromptTag[];
const auditOf = async (targetId: string) =>
  (await api(t.app, admin).getBody(`/api/admin/AuditLog/GetList?page=1&count=50&targetType=promptTag`)).Data.list.filter(
    (e: { targetId: string }) => e.targetId === targetId,
  ) as { action: string; before: AdminPromptTag | null; after: AdminPromptTag | null }[];

describe('prompt tags: operators manage them', () => {
  it('creates, lists in order, renames and deletes a tag, each write in the audit log', async () => {
    const writing = await newTag('  Writing ', ' 写作 ');
    expect(writing).toMatchObject({ nameEn: 'Writing', nameZh: '写作', promptCount: 0, userPromptCount: 0 });
    const first = await newTag('Aardvark', '土豚', 0);
    const tags = await adminTags();
    expect(tags.map((x) => x.tagPromptId).slice(0, 1)).toEqual([first.tagPromptId]);
    expect(tags.findIndex((x) => x.tagPromptId === writing.tagPromptId)).toBeGreaterThan(0);

    const renamed = await saveTag({ tagPromptId: writing.tagPromptId, nameEn: 'Writing help', nameZh: '写作帮助' });
    expect(renamed.Data).toMatchObject({ tagPromptId: writing.tagPromptId, nameEn: 'Writing help', nameZh: '写作帮助', sort: writing.sort });
    expect((await saveTag({ tagPromptId: 'no-such-tag', nameEn: 'Ghost', nameZh: '幽灵' })).Code).toBe(10404);

    expect((await api(t.app, admin).postBody('/api/admin/TagPrompt/Delete', { tagPromptId: first.tagPromptId })).Code).toBe(10000);
    expect((await adminTags()).some((x) => x.tagPromptId === first.tagPromptId)).toBe(false);
    expect((await api(t.app, admin).postBody('/api/admin/TagPrompt/Delete', { tagPromptId: first.tagPromptId })).Code).toBe(10404);

    const log = await auditOf(writing.tagPromptId);
    expect(log.map((e) => [e.before?.nameEn ?? null, e.after?.nameEn ?? null])).toEqual(
      expect.arrayContaining([
        [null, 'Writing'],
        ['Writing', 'Writing help'],
      ]),
    );
    expect((await auditOf(first.tagPromptId)).some((e) => e.before?.nameEn === 'Aardvark' && e.after === null)).toBe(true);
  });

  it('requires both names, bounds their length, and refuses a name another tag has in that language, whatever its case', async () => {
    const noZh = await saveTag({ nameEn: 'Lonely' });
    expect(noZh).toMatchObject({ Code: 10400, Msg: expect.stringContaining('Please enter the tag name in both languages.') });
    expect((await saveTag({ nameEn: '   ', nameZh: '空' })).Msg).toContain('Please enter the tag name in both languages.');
    expect((await saveTag({ nameEn: 'x'.repeat(31), nameZh: '长' })).Msg).toContain('A tag name is at most 30 characters.');
    expect((await saveTag({ nameZh: '孤单' }, 'zh-CN')).Msg).toContain('请填写标签的中英文名称。');

    const coding = await newTag('Coding', '编程');
    const sameEn = await saveTag({ nameEn: 'CODING', nameZh: '写代码' });
    expect(sameEn).toMatchObject({ Code: 10409, Msg: 'A tag named “CODING” exists already (names are compared without case). Choose another name, or edit that tag.' });
    expect(await saveTag({ nameEn: 'Programming', nameZh: '编程' }, 'zh-CN')).toMatchObject({ Code: 10409, Msg: expect.stringContaining('已有名为“编程”的标签') });
    const other = await newTag('Design', '设计');
    expect((await saveTag({ tagPromptId: other.tagPromptId, nameEn: 'coding', nameZh: '设计' })).Code).toBe(10409);
    // A tag keeps its own names when saved again, in another case too.
    expect((await saveTag({ tagPromptId: coding.tagPromptId, nameEn: 'coding', nameZh: '编程' })).Data).toMatchObject({ nameEn: 'coding' });
    expect((await adminTags()).filter((x) => x.nameEn.toLowerCase() === 'coding')).toHaveLength(1);
  });

  it('is for operators only: a user gets 10403, a signed-out caller 10402, and nothing changes', async () => {
    const tag = await newTag('Guarded', '受保护');
    const before = await adminTags();
    expect((await api(t.app, user).getBody('/api/admin/TagPrompt/GetList')).Code).toBe(10403);
    expect((await api(t.app, user).postBody('/api/admin/TagPrompt/Save', { nameEn: 'Mine', nameZh: '我的' })).Code).toBe(10403);
    expect((await api(t.app, user).postBody('/api/admin/TagPrompt/Delete', { tagPromptId: tag.tagPromptId })).Code).toBe(10403);
    expect((await api(t.app).postBody('/api/admin/TagPrompt/Save', { nameEn: 'Anon', nameZh: '匿名' })).Code).toBe(10402);
    const after = await adminTags();
    expect(after).toEqual(before);
  });
});

describe('prompt tags: the prompt library is browsed by tag', () => {
  it('lists each prompt with its tags in its language, filters by tag, and answers the same at /api/Chat', async () => {
    const email = await newTag('Email', '邮件', 1);
    const social = await newTag('Social', '社交', 2);
    const mail = await savePrompt({ title: 'Polite reply', tagIds: [social.tagPromptId, email.tagPromptId, email.tagPromptId] });
    expect(mail.tags).toEqual([
      { tagPromptId: email.tagPromptId, name: 'Email' },
      { tagPromptId: social.tagPromptId, name: 'Social' },
    ]);
    const zh = await savePrompt({ title: '礼貌回复', language: 'zh', tagIds: [email.tagPromptId] });
    const hidden = await savePrompt({ title: 'Hidden mail', online: false, tagIds: [email.tagPromptId] });

    const all = await library();
    expect(all.Data.find((p) => p.aiPrompWordId === mail.aiPrompWordId)?.tags.map((x) => x.name)).toEqual(['Email', 'Social']);
    expect(all.Data.filter((p) => p.tags.length === 0).length).toBeGreaterThan(0);
    const byEmail = await library(`?tagId=${email.tagPromptId}`);
    expect(byEmail.Data.map((p) => p.aiPrompWordId)).toEqual([mail.aiPrompWordId]);
    const zhByEmail = (await library(`?tagId=${email.tagPromptId}`, 'zh')).Data;
    expect(zhByEmail.map((p) => [p.aiPrompWordId, p.tags])).toEqual([[zh.aiPrompWordId, [{ tagPromptId: email.tagPromptId, name: '邮件' }]]]);
    expect((await library('?tagId=no-such-tag')).Data).toEqual([]);
    expect(hidden.tags).toHaveLength(1);

    for (const query of ['', `?tagId=${social.tagPromptId}`, '?language=zh']) {
      const chat = await library(query, 'en', '/api/Chat');
      expect(chat).toEqual(await library(query));
    }

    const tags = await publicTags();
    expect(tags.find((x) => x.tagPromptId === email.tagPromptId)).toEqual({ tagPromptId: email.tagPromptId, name: 'Email', sort: 1, promptCount: 1 });
    expect((await publicTags('', 'zh-CN')).find((x) => x.tagPromptId === email.tagPromptId)).toMatchObject({ name: '邮件', promptCount: 1 });
    expect(tags.map((x) => x.sort)).toEqual([...tags.map((x) => x.sort)].sort((a, b) => a - b));
    expect((await adminTags()).find((x) => x.tagPromptId === email.tagPromptId)).toMatchObject({ promptCount: 3 });
  });

  it("keeps a prompt's tags when saved without tagIds, refuses an unknown tag without writing, and a deleted tag leaves the prompts", async () => {
    const travel = await newTag('Travel', '旅行');
    const prompt = await savePrompt({ title: 'Packing list', tagIds: [travel.tagPromptId] });
    const kept = await savePrompt({ aiPrompWordId: prompt.aiPrompWordId, title: 'Packing list!' });
    expect(kept.tags.map((x) => x.tagPromptId)).toEqual([travel.tagPromptId]);

    const refused = await api(t.app, admin).postBody('/api/admin/AiPrompWord/Save', { aiPrompWordId: prompt.aiPrompWordId, language: 'en', title: 'Renamed', content: 'x', tagIds: ['no-such-tag'] });
    expect(refused).toMatchObject({ Code: 10400, Msg: 'One of the chosen tags no longer exists. Refresh the list and choose again.' });
    const unchanged = (await api(t.app, admin).getBody(`/api/admin/AiPrompWord/GetById?aiPrompWordId=${prompt.aiPrompWordId}`)).Data as RecommendedPrompt;
    expect(unchanged).toMatchObject({ title: 'Packing list!', tags: [{ tagPromptId: travel.tagPromptId, name: 'Travel' }] });
    const tooMany = await api(t.app, admin).postBody('/api/admin/AiPrompWord/Save', { language: 'en', title: 'Many', content: 'x', tagIds: Array.from({ length: 11 }, (_, i) => `t${i}`) });
    expect(tooMany).toMatchObject({ Code: 10400, Msg: expect.stringContaining('A prompt can carry at most 10 tags.') });

    const ownPrompt = (await api(t.app, user).postBody('/api/QuickFunction/SaveUserQuickFunction', { name: 'Trip', template: 'Plan {input}', appliesTo: ['input'], tagIds: [travel.tagPromptId] })).Data as UserQuickFunction;
    expect(ownPrompt.tagIds).toEqual([travel.tagPromptId]);

    expect((await api(t.app, admin).postBody('/api/admin/TagPrompt/Delete', { tagPromptId: travel.tagPromptId })).Code).toBe(10000);
    expect((await api(t.app, admin).getBody(`/api/admin/AiPrompWord/GetById?aiPrompWordId=${prompt.aiPrompWordId}`)).Data).toMatchObject({ title: 'Packing list!', tags: [] });
    const own = (await api(t.app, user).getBody('/api/QuickFunction/GetUserQuickFunctionList')).Data as UserQuickFunction[];
    expect(own.find((p) => p.userQuickFunctionId === ownPrompt.userQuickFunctionId)).toMatchObject({ name: 'Trip', tagIds: [] });
    const links = await t.database.db.execute<{ n: number }>(sql`select count(*)::int as n from recommended_prompt_tags where tag_id = ${travel.tagPromptId}`);
    expect(Number(links.rows[0]!.n)).toBe(0);
  });
});

describe("prompt tags: the user's own prompts carry them", () => {
  it('saves, keeps, replaces and clears the tags of an own prompt; an unknown tag changes nothing', async () => {
    const [a, b] = [await newTag('Study', '学习'), await newTag('Work', '工作')];
    const me = await createUser(t.app);
    const save = (body: Record<string, unknown>) => api(t.app, me).postBody('/api/QuickFunction/SaveUserQuickFunction', body);
    const list = async () => (await api(t.app, me).getBody('/api/QuickFunction/GetUserQuickFunctionList')).Data as UserQuickFunction[];
    const created = (await save({ name: 'Flashcards', template: 'Cards for {selection}', appliesTo: ['selection'], tagIds: [b.tagPromptId, a.tagPromptId] })).Data as UserQuickFunction;
    expect(created.tagIds).toEqual([a.tagPromptId, b.tagPromptId]);
    const untagged = (await save({ name: 'Plain', template: 'x', appliesTo: ['input'] })).Data as UserQuickFunction;
    expect(untagged.tagIds).toEqual([]);

    const id = created.userQuickFunctionId;
    expect(((await save({ userQuickFunctionId: id, name: 'Flashcards 2', template: 'x', appliesTo: ['input'] })).Data as UserQuickFunction).tagIds).toEqual([a.tagPromptId, b.tagPromptId]);
    expect(((await save({ userQuickFunctionId: id, name: 'Flashcards 2', template: 'x', appliesTo: ['input'], tagIds: [b.tagPromptId] })).Data as UserQuickFunction).tagIds).toEqual([b.tagPromptId]);

    const bad = await save({ userQuickFunctionId: id, name: 'Broken', template: 'x', appliesTo: ['input'], tagIds: ['nope'] });
    expect(bad.Code).toBe(10400);
    const badNew = await save({ name: 'Never', template: 'x', appliesTo: ['input'], tagIds: ['nope'] });
    expect(badNew.Code).toBe(10400);
    const now = await list();
    expect(now.map((p) => [p.name, p.tagIds])).toEqual([
      ['Flashcards 2', [b.tagPromptId]],
      ['Plain', []],
    ]);

    expect(((await save({ userQuickFunctionId: id, name: 'Flashcards 2', template: 'x', appliesTo: ['input'], tagIds: [] })).Data as UserQuickFunction).tagIds).toEqual([]);
    // The menu tree carries no tags (its items are the menu's fields only).
    const menu = (await api(t.app, me).getBody('/api/QuickFunction/GetQuickFunctionListAll2')).Data as Record<string, unknown>[];
    expect(menu.every((n) => !('tagIds' in n))).toBe(true);
    // Another user's prompt list is not touched by these tags.
    expect((await api(t.app, user).getBody('/api/QuickFunction/GetUserQuickFunctionList')).Data.every((p: UserQuickFunction) => !p.tagIds.includes(a.tagPromptId))).toBe(true);
  });
});
