import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createAdmin, createUser } from '../helpers/users.ts';

describe('uninstall feedback', () => {
  let t: TestApp;
  let adminToken: string;
  let user: { userId: string; token: string };
  // Each test sends from its own address: the route allows a few sends per address.
  let address = 0;

  const send = async (payload: unknown, { token, lang, ip = `10.0.0.${++address}` }: { token?: string; lang?: string; ip?: string } = {}) => {
    const res = await api(t.app, token).post('/api/System/AddFeedback', payload, { lang, remoteAddress: ip });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const list = async (token: string, query = '') => {
    const res = await api(t.app, token).get(`/api/admin/Feedback/GetList${query}`);
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    t = await createTestApp();
    adminToken = (await createAdmin(t.app)).token;
    user = await createUser(t.app);
  });
  afterAll(() => t.close());

  it('stores feedback sent signed out, with the browser, version and language, and lists it for operators', async () => {
    const sent = await send({ reasons: ['price', 'other'], otherText: '  Too slow on my laptop  ', browser: 'edge', version: '0.1.0', language: 'zh' });
    expect(sent).toMatchObject({ Code: 10000, Data: { feedbackId: expect.any(String) } });
    const body = await list(adminToken);
    expect(body.Code).toBe(10000);
    expect(body.Data.list[0]).toMatchObject({
      feedbackId: sent.Data.feedbackId,
      reasons: ['price', 'other'],
      otherText: 'Too slow on my laptop',
      browser: 'edge',
      version: '0.1.0',
      language: 'zh',
      userId: null,
    });
  });

  it('keeps who sent it when signed in, and drops text that goes with no "other"', async () => {
    const sent = await send({ reasons: ['privacy', 'privacy'], otherText: 'ignored' }, { token: user.token });
    expect(sent.Code).toBe(10000);
    const entry = (await list(adminToken)).Data.list.find((e: { feedbackId: string }) => e.feedbackId === sent.Data.feedbackId);
    expect(entry).toMatchObject({ reasons: ['privacy'], otherText: '', userId: user.userId, browser: 'unknown', version: '', language: 'en' });
  });

  it('refuses no reason, and "other" without text, with a message in the caller language', async () => {
    const none = await send({ reasons: [] });
    expect(none.Code).toBe(10400);
    expect(none.Msg).toContain('Please choose at least one reason.');
    const other = await send({ reasons: ['other'], otherText: '   ' }, { lang: 'zh-CN' });
    expect(other.Code).toBe(10400);
    expect(other.Msg).toContain('请填写其他原因的具体内容。');
    const unknown = await send({ reasons: ['boredom'] });
    expect(unknown.Code).toBe(10400);
    const tooLong = await send({ reasons: ['other'], otherText: 'x'.repeat(2001) });
    expect(tooLong.Code).toBe(10400);
  });

  it('limits how often one address sends', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await send({ reasons: ['inconvenient'] }, { ip: '10.9.9.9' })).Code);
    expect(codes.slice(0, 10).every((c) => c === 10000)).toBe(true);
    expect(codes[10]).toBe(10429);
  });

  it('pages the list, filters by reason, and refuses visitors and users who are not operators', async () => {
    const page = await list(adminToken, '?page=1&count=2');
    expect(page.Data.list).toHaveLength(2);
    expect(page.Data.total).toBeGreaterThanOrEqual(12);
    const priced = await list(adminToken, '?reason=price');
    expect(priced.Data.list.map((e: { reasons: string[] }) => e.reasons.includes('price'))).toEqual(priced.Data.list.map(() => true));
    expect(priced.Data.total).toBe(1);
    expect((await list(user.token)).Code).toBe(10403);
    const visitor = await api(t.app).get('/api/admin/Feedback/GetList');
    expect(visitor.json().Code).toBe(10402);
    expect((await list(adminToken, '?reason=boredom')).Code).toBe(10400);
  });
});
