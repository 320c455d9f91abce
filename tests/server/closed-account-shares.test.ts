import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages, chatSessions } from '../../server/db/schema/chat.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createAdmin, createUser, type TestUser } from '../helpers/users.ts';

/** Close takes an account's share links down, and Reopen does not bring them back (docs/security.md#share-links). */
describe('share links of a closed account', () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT: '1000' });
    admin = await createAdmin(t.app);
  });
  afterAll(async () => t?.close());

  const post = (url: string, token: string, payload: object) => api(t.app, token).postBody(url, payload);
  const view = async (shareId: string) => (await api(t.app).getBody(`/api/Share/GetShare?shareId=${shareId}`)).Code;

  it('answers 10404 for the links of a closed account, also after Reopen', async () => {
    const user = await createUser(t.app);
    const sessionId = randomUUID();
    await t.database.db.insert(chatSessions).values({ id: sessionId, userId: user.userId, title: 'public once' });
    await t.database.db.insert(chatMessages).values({
      id: randomUUID(), sessionId, userId: user.userId, inputMessage: 'q', outputMessage: 'a', requestedModelId: 'm', modelName: 'M', finishReason: 'stop', mediaIds: [],
    });
    const shareId = (await post('/api/Chat/ShareSession', user.token, { chatSessionId: sessionId })).Data.shareId as string;
    expect(await view(shareId)).toBe(10000);
    expect((await post('/api/admin/User/Close', admin.token, { userId: user.userId })).Code).toBe(10000);
    expect(await view(shareId)).toBe(10404);
    expect((await post('/api/admin/User/Reopen', admin.token, { userId: user.userId })).Code).toBe(10000);
    expect(await view(shareId)).toBe(10404);
  });
});
