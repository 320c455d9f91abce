import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { listening } from '../helpers/chat.ts';

/**
 * What Node's HTTP parser refuses before any route runs (an address or headers over its limit) is
 * answered in the {Code, Msg, Data} envelope with a message a person can act on, like every refusal.
 */
describe('requests the HTTP parser refuses', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp();
    base = await listening(t.app);
  });
  afterAll(async () => t?.close());

  it('answers an over-long query string with 431 in the envelope', async () => {
    const res = await fetch(`${base}/api/Chat/SearchMessages?q=${'a'.repeat(40_000)}`);
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual({ Code: 10413, Msg: expect.stringContaining('too long'), Data: null });
  });

  it('answers in the caller’s language when the headers read so far name it', async () => {
    const res = await fetch(`${base}/api/System/GetSettingListAll`, { headers: { 'accept-language': 'zh-CN', 'x-padding': 'p'.repeat(40_000) } });
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual({ Code: 10413, Msg: expect.stringContaining('过长'), Data: null });
  });
});
