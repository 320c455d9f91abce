import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Codes } from '../../shared/contracts/envelope.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Where the visitor is (GET /api/System/IsChina, from the local GeoLite2 copy) and the country list
 * in the caller's language (GET /api/System/GetCountrieList). inject() makes no connection: the
 * addresses below only label the requests.
 */

let t: TestApp;
let proxied: TestApp;
beforeAll(async () => {
  [t, proxied] = await Promise.all([createTestApp(), createTestApp({ TRUST_PROXY: '127.0.0.1' })]);
});
afterAll(async () => {
  await Promise.all([t?.close(), proxied?.close()]);
});

const isChina = (app: TestApp, remoteAddress: string, headers: Record<string, string> = {}) => api(app.app).getBody('/api/System/IsChina', { remoteAddress, headers });

describe('IsChina', () => {
  it("tells the caller's country by address, mainland China apart", async () => {
    expect((await isChina(t, '1.2.4.8')).Data).toEqual({ isChina: true, country: 'CN' });
    expect((await isChina(t, '::ffff:1.2.4.8')).Data).toEqual({ isChina: true, country: 'CN' });
    expect((await isChina(t, '8.8.8.8')).Data).toEqual({ isChina: false, country: 'US' });
  });

  it('knows no country for loopback and private addresses', async () => {
    for (const address of ['127.0.0.1', '::1', '10.1.2.3', '192.168.0.10']) {
      const res = await isChina(t, address);
      expect(res, address).toMatchObject({ Code: Codes.Success, Data: { isChina: false, country: null } });
    }
  });

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    const forwarded = { 'x-forwarded-for': '1.2.4.8' };
    expect((await isChina(t, '127.0.0.1', forwarded)).Data.country).toBeNull();
    expect((await isChina(proxied, '127.0.0.1', forwarded)).Data).toEqual({ isChina: true, country: 'CN' });
  });
});

describe('GetCountrieList', () => {
  const list = async (lang: string) => {
    const res = await api(t.app).get('/api/System/GetCountrieList', { lang });
    expect(res.headers.vary).toMatch(/accept-language/i);
    return res.json().Data as { code: string; name: string }[];
  };

  it('lists every country once, named in English and in alphabetical order', async () => {
    const en = await list('en');
    expect(en.length).toBeGreaterThan(240);
    expect(new Set(en.map((c) => c.code)).size).toBe(en.length);
    expect(en).toContainEqual({ code: 'CN', name: 'China' });
    expect(en).toContainEqual({ code: 'DE', name: 'Germany' });
    expect(en.map((c) => c.name)).toEqual([...en.map((c) => c.name)].sort(new Intl.Collator('en').compare));
    expect(en[0]!.name).toBe('Afghanistan');
  });

  it('names them in Chinese, in pinyin order, for a Chinese reader', async () => {
    const zh = await list('zh-CN');
    expect(zh).toContainEqual({ code: 'CN', name: '中国' });
    expect(zh).toContainEqual({ code: 'DE', name: '德国' });
    expect(zh.map((c) => c.code).sort()).toEqual((await list('en')).map((c) => c.code).sort());
    // Pinyin: Ā'ěrbāníyà (Albania) comes before Zhōngguó (China).
    const at = (code: string) => zh.findIndex((c) => c.code === code);
    expect(at('AL')).toBeLessThan(at('DE'));
    expect(at('DE')).toBeLessThan(at('CN'));
  });
});

describe('where the visitor is, used by the pricing page', () => {
  it("names the caller's country and the ways to pay there (none until payments are set up)", async () => {
    const list = async (remoteAddress: string) => (await api(t.app).getBody('/api/Vip/GetVipPackageList', { remoteAddress })).Data;
    expect(await list('1.2.4.8')).toMatchObject({ country: 'CN', checkoutAvailable: false, paymentMethods: [] });
    expect(await list('8.8.8.8')).toMatchObject({ country: 'US', paymentMethods: [] });
    expect((await list('127.0.0.1')).country).toBeNull();
  });

  it('offers a card through Stripe everywhere once payments are set up', async () => {
    const paid = await createTestApp({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', STRIPE_API_BASE: 'http://127.0.0.1:9' });
    try {
      for (const remoteAddress of ['1.2.4.8', '8.8.8.8', '127.0.0.1']) {
        expect((await api(paid.app).getBody('/api/Vip/GetVipPackageList', { remoteAddress })).Data.paymentMethods, remoteAddress).toEqual(['card']);
      }
    } finally {
      await paid.close();
    }
  });
});
