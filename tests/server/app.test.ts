import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

describe('the HTTP envelope', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers unknown routes with HTTP 404 and the envelope', async () => {
    const res = await api(t.app).get('/api/Nope/Nothing');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ Code: 10404, Msg: 'request not found', Data: null });
  });

  it('answers the not-found message in Chinese when accept-language asks for it', async () => {
    const res = await api(t.app).get('/api/Nope', { lang: 'zh-CN,zh;q=0.9' });
    expect(res.json().Msg).toBe('请求不存在');
  });

  it('serves the OpenAPI document', async () => {
    const res = await api(t.app).get('/api/docs/json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    // Responses are documented with the envelope around the contract's Data, or the failure envelope
    // (tests/server/openapi.test.ts checks every route's answers against the document).
    const [user, failure] = doc.paths['/api/User/GetUserByLogin'].get.responses['200'].content['application/json'].schema.anyOf;
    expect(Object.keys(user.properties)).toEqual(['Code', 'Msg', 'Data']);
    expect(user.properties.Data.properties).toHaveProperty('vipOrder');
    expect(failure).toEqual({ $ref: '#/components/schemas/FailureEnvelope' });
  });
});
