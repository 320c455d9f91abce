import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages, chatSessions } from '../../server/db/schema/chat.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { auth, createUser, type TestUser } from '../helpers/users.ts';

/**
 * Rate limits count people, not addresses (docs/security.md#rate-limits): thirty people behind one
 * address (an office's NAT, or every user behind a proxy without TRUST_PROXY) can each check in,
 * upload and share; one person still meets their own limit.
 */

const OFFICE = '203.0.113.7';

describe('rate limits per user', () => {
  let t: TestApp;
  let png: Buffer;

  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT: '1000' });
    png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#336699' } }).png().toBuffer();
  });
  afterAll(async () => t?.close());

  const fromTheOffice = { remoteAddress: OFFICE };

  async function upload(user: TestUser) {
    const form = new FormData();
    form.append('mediaType', 'image');
    form.append('imageFile', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'dot.png');
    const encoded = new Response(form);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/Chat/AddChatMedia',
      remoteAddress: OFFICE,
      headers: { ...auth(user.token), 'content-type': encoded.headers.get('content-type')! },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    return res.json();
  }

  async function chatOf(user: TestUser) {
    const sessionId = randomUUID();
    await t.database.db.insert(chatSessions).values({ id: sessionId, userId: user.userId, title: 'office chat' });
    await t.database.db.insert(chatMessages).values({
      id: randomUUID(), sessionId, userId: user.userId, inputMessage: 'q', outputMessage: 'a', requestedModelId: 'm', modelName: 'M', finishReason: 'stop', mediaIds: [],
    });
    return sessionId;
  }

  it('lets thirty people behind one address each check in, upload and share', async () => {
    const people = await Promise.all(Array.from({ length: 30 }, () => createUser(t.app)));
    for (const person of people) {
      expect((await api(t.app, person).postBody('/api/User/UserSignin', { timeZone: 'UTC' }, fromTheOffice)).Code).toBe(10000);
      expect((await upload(person)).Code).toBe(10000);
      expect((await api(t.app, person).postBody('/api/Chat/ShareSession', { chatSessionId: await chatOf(person) }, fromTheOffice)).Code).toBe(10000);
    }
  });

  it('still holds one person to their own limit, whatever address they come from', async () => {
    const person = await createUser(t.app);
    const sessionId = await chatOf(person);
    const codes: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await api(t.app, person).post('/api/Chat/ShareSession', { chatSessionId: sessionId }, { remoteAddress: `198.51.100.${i + 1}` });
      codes.push(res.json().Code);
    }
    expect(codes.slice(0, 30).every((c) => c === 10000)).toBe(true);
    expect(codes[30]).toBe(10429);
  });
});
