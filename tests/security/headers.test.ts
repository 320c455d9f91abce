import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { captureLog } from '../helpers/log-capture.ts';
import { auth, createUser, type TestUser } from '../helpers/users.ts';

/** Headers every answer carries, and errors of the HTTP framework kept inside the envelope. */

const json = { 'content-type': 'application/json-patch+json' };

describe('headers and edges', () => {
  const log = captureLog();
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'warn', AUTH_RATE_LIMIT: '1000' }, { logger: log.logger });
    user = await createUser(t.app);
  });
  afterAll(async () => t?.close());

  it('lets nobody frame the API reference, under a CSP of its own', async () => {
    for (const url of ['/api/docs', '/api/docs/', '/api/docs/json', '/api/docs/static/index.html']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      if (res.statusCode === 200 && String(res.headers['content-type']).startsWith('text/html')) {
        const csp = String(res.headers['content-security-policy']);
        expect(csp, url).toContain("frame-ancestors 'none'");
        expect(csp, url).toContain("default-src 'self'");
        expect(csp, url).not.toContain('validator.swagger.io');
      }
    }
  });

  it('sends nosniff with every API answer: success, error, not found, stream', async () => {
    const answers = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/System/GetSettingListAll' }),
      t.app.inject({ method: 'GET', url: '/api/User/GetUserByLogin' }),
      t.app.inject({ method: 'GET', url: '/api/User/GetUserByLogin', headers: auth(user.token) }),
      t.app.inject({ method: 'GET', url: '/api/No/SuchRoute' }),
      t.app.inject({ method: 'POST', url: '/api/Chat/AddMessage', headers: { ...json, ...auth(user.token) }, payload: '{"inputMessage":"hi","aiModelId":"none","chatMediaIds":[]}' }),
    ]);
    for (const res of answers) expect(res.headers['x-content-type-options'], res.raw.req.url).toBe('nosniff');
  });

  const envelope = (code: number) => ({ Code: code, Msg: expect.any(String), Data: null });

  it('answers errors of the HTTP framework in the envelope, in the caller language', async () => {
    const badUrl = await t.app.inject({ method: 'GET', url: '/api/%E0%A4%A' });
    expect(badUrl.statusCode).toBe(200);
    expect(badUrl.json()).toEqual(envelope(10400));
    expect(badUrl.json().Msg).toMatch(/percent-encoding/);
    const badUrlZh = await t.app.inject({ method: 'GET', url: '/api/User/%E0%A4%A', headers: { 'accept-language': 'zh-CN' } });
    expect(badUrlZh.json().Msg).toMatch(/百分号/);

    const malformed = await t.app.inject({ method: 'POST', url: '/api/User/UpdateNickName', headers: { ...json, ...auth(user.token) }, payload: '{"nickName":' });
    expect(malformed.json()).toEqual(envelope(10400));
    const tooLarge = await t.app.inject({ method: 'POST', url: '/api/User/UpdateNickName', headers: { ...json, ...auth(user.token) }, payload: JSON.stringify({ nickName: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(tooLarge.json()).toEqual(envelope(10413));
    const wrongType = await t.app.inject({ method: 'POST', url: '/api/User/UpdateNickName', headers: { 'content-type': 'application/xml', ...auth(user.token) }, payload: '<a/>' });
    expect(wrongType.json()).toEqual(envelope(10400));
    for (const res of [badUrl, malformed, tooLarge, wrongType]) {
      expect(res.body).not.toMatch(/FST_|statusCode|"error"/);
    }
  });

  it('refuses a NUL character as bad input on every kind of write, in the envelope', async () => {
    const writes: [string, unknown][] = [
      ['/api/User/UpdateNickName', { nickName: 'a\u0000b' }],
      ['/api/User/SaveUserSetting', { language: 'en', occupation: '\u0000' }],
      ['/api/Chat/UpdateSessionTitle', { chatSessionId: '00000000-0000-4000-8000-000000000000', sessionTitle: 'x\u0000' }],
      ['/api/Chat/AddMessage', { aiModelId: 'auto', inputMessage: 'hi\u0000', chatMediaIds: [] }],
      ['/api/Account/AddUser', { email: 'nul@example.test', password: 'long enough pw', userName: 'n', ['in\u0000viteCode']: 'x' }],
      ['/api/System/AddFeedback', { reasons: ['other'], other: '\u0000' }],
    ];
    for (const [url, payload] of writes) {
      const res = await t.app.inject({ method: 'POST', url, headers: { ...json, ...auth(user.token) }, payload: JSON.stringify(payload) });
      expect(res.statusCode, url).toBe(200);
      expect(res.json(), url).toMatchObject({ Code: 10400, Data: null });
      expect(res.json().Msg, url).toContain('NUL');
    }
    const query = await t.app.inject({ method: 'GET', url: '/api/Chat/GetChatSessionListBySelf?page=1&count=20&sessionTitle=%00', headers: auth(user.token) });
    expect(query.json()).toMatchObject({ Code: 10400, Data: null });
  });

  it('warns once that rate limits see one address when a proxy is not trusted', async () => {
    log.clear();
    for (let i = 0; i < 3; i++) {
      await t.app.inject({ method: 'GET', url: '/api/System/GetSettingListAll', headers: { 'x-forwarded-for': `203.0.113.${i}` } });
    }
    const warnings = log.entries.filter((e) => /TRUST_PROXY/.test(e.msg));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toContain('docs/deployment.md');
  });

  it('does not warn when TRUST_PROXY names the proxy', async () => {
    const quiet = captureLog();
    const trusted = await createTestApp({ LOG_LEVEL: 'warn', TRUST_PROXY: '127.0.0.1' }, { logger: quiet.logger });
    try {
      await trusted.app.inject({ method: 'GET', url: '/api/System/GetSettingListAll', headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect(quiet.entries.filter((e) => /TRUST_PROXY/.test(e.msg))).toHaveLength(0);
    } finally {
      await trusted.close();
    }
  });
});
