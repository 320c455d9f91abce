import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMedia } from '../../server/db/schema/media.ts';
import { chatMessages, chatSessions } from '../../server/db/schema/chat.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/users.ts';

type User = { userId: string; email: string; token: string };
type Answer<T = any> = { status: number; Code: number; Msg: string; Data: T };

describe('share links (ShareSession, GetShareList, RevokeShare, GetShare)', () => {
  let t: TestApp;
  let alice: User;
  let bob: User;
  let minute = 0;

  const call = async <T = any>(method: 'GET' | 'POST', url: string, u: User | null, payload?: object): Promise<Answer<T>> => {
    const as = api(t.app, u?.token);
    const res = method === 'GET' ? await as.get(url) : await as.post(url, payload);
    return { status: res.statusCode, ...(res.json() as Omit<Answer<T>, 'status'>) };
  };
  const share = (u: User, chatSessionId: string, includeImages?: boolean) => call('POST', '/api/Chat/ShareSession', u, { chatSessionId, includeImages });
  const view = (shareId: string) => call('GET', `/api/Share/GetShare?shareId=${encodeURIComponent(shareId)}`, null);

  async function chat(u: User, title: string, exchanges: { input: string; output: string; finished?: boolean; mediaIds?: string[]; images?: string[] }[]) {
    const sessionId = randomUUID();
    await t.database.db.insert(chatSessions).values({ id: sessionId, userId: u.userId, title });
    let parentId: string | null = null;
    for (const e of exchanges) {
      const id = randomUUID();
      await t.database.db.insert(chatMessages).values({
        id, parentId, sessionId, userId: u.userId, inputMessage: e.input, outputMessage: e.output,
        requestedModelId: 'basic-model', modelName: 'Basic', finishReason: e.finished === false ? null : 'stop',
        mediaIds: e.mediaIds ?? [], createdAt: new Date(Date.UTC(2026, 5, 1) + ++minute * 60_000),
        toolCalls: e.images ? [{ id: 'c1', pluginId: 'draw', name: 'Draw', status: 'completed', arguments: '{}', result: '', images: e.images }] : [],
      });
      parentId = id;
    }
    return sessionId;
  }

  const webDir = mkdtempSync(path.join(os.tmpdir(), 'tandem-web-'));

  beforeAll(async () => {
    writeFileSync(path.join(webDir, 'app.html'), '<!doctype html><title>Tandem</title>');
    t = await createTestApp({}, { webDir });
    alice = await createUser(t.app, { userName: 'Alice Secret' });
    bob = await createUser(t.app);
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('shows anyone with the link the finished exchanges at the time it was made, and nothing private', async () => {
    const sessionId = await chat(alice, 'Trip plan', [
      { input: 'Plan a trip to Kyoto', output: 'Day 1: **Fushimi Inari**. $e^{i\\pi}+1=0$' },
      { input: 'Cheaper?', output: 'Stay in a hostel.' },
      { input: 'Still writing', output: 'partial', finished: false },
    ]);
    const made = await share(alice, sessionId);
    expect(made.Code).toBe(10000);
    expect(made.Data).toMatchObject({ chatSessionId: sessionId, sessionTitle: 'Trip plan', messageCount: 2, includeImages: false });
    expect(made.Data.shareId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(made.Data.path).toBe(`/share/${made.Data.shareId}`);

    // Later exchanges are not part of the snapshot.
    await chat(alice, 'other', [{ input: 'x', output: 'y' }]);
    await t.database.db.insert(chatMessages).values({ id: randomUUID(), sessionId, userId: alice.userId, inputMessage: 'After the link', outputMessage: 'not shared', requestedModelId: 'basic-model', finishReason: 'stop', createdAt: new Date(Date.UTC(2026, 5, 2)) });

    const seen = await view(made.Data.shareId);
    expect(seen.Code).toBe(10000);
    expect(seen.Data.title).toBe('Trip plan');
    expect(seen.Data.messages.map((m: { inputMessage: string }) => m.inputMessage)).toEqual(['Plan a trip to Kyoto', 'Cheaper?']);
    expect(seen.Data.messages[0]).toEqual({ inputMessage: 'Plan a trip to Kyoto', outputMessage: 'Day 1: **Fushimi Inari**. $e^{i\\pi}+1=0$', modelName: 'Basic', citations: [], images: [], createTime: expect.any(String) });
    const text = JSON.stringify(seen);
    for (const secret of [alice.userId, alice.email, alice.token, 'Alice Secret', sessionId]) expect(text).not.toContain(secret);
  });

  it('includes images only when the owner chose to', async () => {
    const mediaId = randomUUID();
    await t.database.db.insert(chatMedia).values({ id: mediaId, userId: alice.userId, mediaType: 'image', title: 'cat.png', url: '', icon: '', storageKey: `k/${mediaId}`, status: 'completed' } as typeof chatMedia.$inferInsert);
    const fileId = randomUUID();
    await t.database.db.insert(chatMedia).values({ id: fileId, userId: alice.userId, mediaType: 'file', title: 'secret.pdf', url: '', icon: '', storageKey: `k/${fileId}`, status: 'completed' } as typeof chatMedia.$inferInsert);
    const sessionId = await chat(alice, 'Pictures', [{ input: 'What is this?', output: 'A cat.', mediaIds: [mediaId, fileId] }]);
    const without = await view((await share(alice, sessionId)).Data.shareId);
    expect(without.Data.messages[0].images).toEqual([]);
    const withImages = await view((await share(alice, sessionId, true)).Data.shareId);
    expect(withImages.Data.messages[0].images).toHaveLength(1);
    expect(withImages.Data.messages[0].images[0]).toContain(`chatMediaId=${mediaId}`);
    expect(JSON.stringify(withImages)).not.toContain('secret.pdf');
  });

  it('lists the owner’s live links; a revoked or deleted chat’s link is gone', async () => {
    const sessionId = await chat(alice, 'Revocable', [{ input: 'q', output: 'a' }]);
    const first = (await share(alice, sessionId)).Data;
    const second = (await share(alice, sessionId)).Data;
    const listed = (await call('GET', '/api/Chat/GetShareList', alice)).Data.map((s: { shareId: string }) => s.shareId);
    expect(listed.slice(0, 2)).toEqual([second.shareId, first.shareId]);
    expect((await call('GET', '/api/Chat/GetShareList', bob)).Data).toEqual([]);

    // Bob cannot revoke Alice's link.
    expect((await call('POST', '/api/Chat/RevokeShare', bob, { shareId: first.shareId })).Code).toBe(10404);
    expect((await call('POST', '/api/Chat/RevokeShare', alice, { shareId: first.shareId })).Code).toBe(10000);
    const gone = await view(first.shareId);
    expect(gone.Code).toBe(10404);
    expect(gone.Msg).toBe('This shared chat was removed, or the link is wrong.');
    expect((await call('POST', '/api/Chat/RevokeShare', alice, { shareId: first.shareId })).Code).toBe(10404);
    expect((await call('GET', '/api/Chat/GetShareList', alice)).Data.map((s: { shareId: string }) => s.shareId)).not.toContain(first.shareId);

    expect((await view(second.shareId)).Code).toBe(10000);
    // The page: the app for a live link, the same page with HTTP 404 for a revoked one, the link never sent on.
    const page = (id: string) => api(t.app).get(`/share/${id}`, { headers: { 'if-none-match': '*' } });
    const live = await page(second.shareId);
    expect([live.statusCode, live.headers['referrer-policy'], live.headers['x-robots-tag']]).toEqual([200, 'no-referrer', 'noindex']);
    expect(live.body).toContain('<title>Tandem</title>');
    const revokedPage = await page(first.shareId);
    expect([revokedPage.statusCode, revokedPage.body]).toEqual([404, live.body]);
    expect((await page('not-an-id')).statusCode).toBe(404);
    await call('POST', '/api/Chat/DeleteSessions', alice, { ids: [sessionId], isDelAll: false });
    expect((await view(second.shareId)).Code).toBe(10404);
  });

  it('refuses another user’s chat, an empty chat, the signed out and malformed ids', async () => {
    const alices = await chat(alice, 'Mine', [{ input: 'q', output: 'a' }]);
    expect((await share(bob, alices)).Code).toBe(10404);
    const empty = await chat(alice, 'Empty', [{ input: 'writing', output: '', finished: false }]);
    const refused = await share(alice, empty);
    expect(refused.Code).toBe(10400);
    expect(refused.Msg).toContain('no finished answer');
    expect((await call('POST', '/api/Chat/ShareSession', null, { chatSessionId: alices })).Code).toBe(10402);
    expect((await call('GET', '/api/Chat/GetShareList', null)).Code).toBe(10402);
    expect((await view('short')).Code).toBe(10400);
    expect((await view('A'.repeat(22))).Code).toBe(10404);
  });
});
