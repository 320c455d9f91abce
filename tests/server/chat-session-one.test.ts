import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages, chatSessions } from '../../server/db/schema/chat.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { storedMessage } from '../helpers/chat.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/** GetChatSession: the open chat's header reads its title there, wherever the chat is in the history. */

let t: TestApp;
let alice: TestUser;
let bob: TestUser;

async function seedSession(u: TestUser, title: string): Promise<string> {
  const id = randomUUID();
  await t.database.db.insert(chatSessions).values({ id, userId: u.userId, title, describe: `about ${title}`, createdAt: new Date('2026-11-20T10:00:00.000Z') });
  return id;
}

const getSession = (u: TestUser | null, id: string, lang?: string) =>
  api(t.app, u ?? undefined).getBody(`/api/Chat/GetChatSession?chatSessionId=${encodeURIComponent(id)}`, { lang });

beforeAll(async () => {
  t = await createTestApp();
  alice = await createUser(t.app);
  bob = await createUser(t.app);
});
afterAll(() => t.close());

describe('GetChatSession', () => {
  it("answers one of the caller's chats as the list shows it, whether an answer is being written included", async () => {
    const id = await seedSession(alice, 'Kyoto trip');
    expect(await getSession(alice, id)).toEqual({
      Code: 10000,
      Msg: expect.any(String),
      Data: expect.objectContaining({ chatSessionId: id, sessionTitle: 'Kyoto trip', sessionDescribe: 'about Kyoto trip', createTime: '2026-11-20T10:00:00.000Z', answering: false }),
    });
    await t.database.db.insert(chatMessages).values(storedMessage({ sessionId: id, userId: alice.userId, inputMessage: 'Hi', finishReason: null, finishedAt: null }));
    expect((await getSession(alice, id)).Data.answering).toBe(true);
  });

  it("answers 10404 for another user's chat or an unknown id, 10400 for an empty id, 10402 signed out", async () => {
    const bobs = await seedSession(bob, 'Bob private');
    const notFound = await getSession(alice, bobs);
    expect(notFound).toMatchObject({ Code: 10404, Data: null });
    expect(JSON.stringify(notFound)).not.toContain('Bob private');
    expect(await getSession(alice, randomUUID())).toMatchObject({ Code: 10404, Data: null });
    const zh = await getSession(alice, randomUUID(), 'zh');
    expect(zh.Code).toBe(10404);
    expect(zh.Msg).not.toBe(notFound.Msg);
    expect(await getSession(alice, '')).toMatchObject({ Code: 10400, Data: null });
    expect(await getSession(alice, 'x'.repeat(65))).toMatchObject({ Code: 10400, Data: null });
    expect(await getSession(null, bobs)).toMatchObject({ Code: 10402, Data: null });
  });
});
