import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { createTestApp, fakeOpenAIEnv, type TestApp } from '../helpers/app.ts';
import { parseChatStream } from '../helpers/chat.ts';
import { api } from '../helpers/api.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

// AddMessage's attachment of kind "chat message" (shared/contracts/attachments.ts): an earlier answer of
// the caller's own, attached to a new question, reaches the model as a delimited part.
let t: TestApp;
let fake: FakeOpenAI;
let user: TestUser;
let other: TestUser;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await createTestApp({ ...fakeOpenAIEnv(fake, 'att-model'), AUTH_RATE_LIMIT: '1000' });
  user = await createUser(t.app);
  other = await createUser(t.app);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => fake.reset());

const send = (token: string, body: Record<string, unknown>, lang = 'en') => api(t.app, token).post('/api/Chat/AddMessage', body, { lang });

/** One finished exchange of `owner`: its message id and session id. */
async function answered(owner: TestUser, answer: string) {
  fake.script('att-model', { chunks: [answer] });
  const events = parseChatStream((await send(owner.token, { aiModelId: 'att-model', inputMessage: 'Tell me about otters' })).body);
  expect(events.at(-1)!.Data.FinishReason).toBe('stop');
  fake.reset();
  return { chatMessageId: events[0]!.Data.ChatMessageId, chatSessionId: events[0]!.Data.ChatSessionId };
}

const userContents = (i: number) =>
  (fake.requests[i]!.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'user').map((m) => m.content);

describe('AddMessage, an earlier answer attached to a new question', () => {
  it("sends the caller's own answer to the model as attached text, in another chat, and shows it on the sent question", async () => {
    const earlier = await answered(user, 'Sea otters hold hands while they sleep.');
    const res = await send(user.token, { aiModelId: 'att-model', inputMessage: 'Make this shorter', attachments: [{ kind: 'chatMessage', chatMessageId: earlier.chatMessageId }] });
    const events = parseChatStream(res.body);
    expect(events.at(-1)!.Data.FinishReason).toBe('stop');
    expect(events[0]!.Data.ChatSessionId).not.toBe(earlier.chatSessionId);
    const [content] = userContents(0) as { type: string; text: string }[][];
    expect(content![0]).toEqual({ type: 'text', text: 'Make this shorter' });
    expect(content![1]!.text).toContain('source: chat message');
    expect(content![1]!.text).toContain('Sea otters hold hands while they sleep.');

    const list = await api(t.app, user).getBody(`/api/Chat/GetChatMessageListBySelfSessionId?chatSessionId=${events[0]!.Data.ChatSessionId}`);
    expect(list.Data.list[0]).toMatchObject({ inputMessage: 'Make this shorter', selection: { text: 'Sea otters hold hands while they sleep.', chatMessageId: earlier.chatMessageId } });

    // A follow-up shows the model the attached answer again, still as a chat message.
    fake.reset();
    const next = parseChatStream((await send(user.token, { aiModelId: 'att-model', inputMessage: 'Thanks', chatSessionId: events[0]!.Data.ChatSessionId })).body);
    expect(next.at(-1)!.Data.FinishReason).toBe('stop');
    const [first] = userContents(0) as { text: string }[][];
    expect(first![1]!.text).toContain('source: chat message');
  });

  it("refuses another user's answer with a clear message, in the caller's language, and stores and sends nothing", async () => {
    const theirs = await answered(other, 'A private answer.');
    const before = (await api(t.app, user).getBody('/api/Chat/GetChatSessionListBySelf?page=1&count=50')).Data.total;
    const res = await send(user.token, { aiModelId: 'att-model', inputMessage: 'Summarize', attachments: [{ kind: 'chatMessage', chatMessageId: theirs.chatMessageId }] });
    expect(res.json()).toMatchObject({ Code: 10404, Msg: expect.stringContaining('The answer you attached was not found') });
    const zh = await send(user.token, { aiModelId: 'att-model', inputMessage: 'Summarize', attachments: [{ kind: 'chatMessage', chatMessageId: theirs.chatMessageId }] }, 'zh-CN');
    expect(zh.json()).toMatchObject({ Code: 10404, Msg: expect.stringContaining('找不到所附的回答') });
    expect(fake.requests).toHaveLength(0);
    expect((await api(t.app, user).getBody('/api/Chat/GetChatSessionListBySelf?page=1&count=50')).Data.total).toBe(before);
  });

  it('refuses a selection and an answer together, and more than one answer', async () => {
    const earlier = await answered(user, 'Otters use rocks as tools.');
    const attachments = [{ kind: 'chatMessage', chatMessageId: earlier.chatMessageId }];
    const both = await send(user.token, { aiModelId: 'att-model', inputMessage: 'Why?', attachments, selection: { text: 'Rocks' } });
    expect(both.json()).toMatchObject({ Code: 10400, Msg: expect.stringContaining('either selected text or an earlier answer') });
    const two = await send(user.token, { aiModelId: 'att-model', inputMessage: 'Why?', attachments: [...attachments, ...attachments] });
    expect(two.json().Code).toBe(10400);
    const unknownKind = await send(user.token, { aiModelId: 'att-model', inputMessage: 'Why?', attachments: [{ kind: 'webPage', chatMessageId: earlier.chatMessageId }] });
    expect(unknownKind.json().Code).toBe(10400);
    expect(fake.requests).toHaveLength(0);
  });
});
