import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { testSaveModel } from '../helpers/models.ts';
import { createAdmin, createUser, type TestUser } from '../helpers/users.ts';

/**
 * What each plan unlocks (GET /api/AiModel/GetModelListByVipPackageId, docs/api.md#points-check-in-redeem-codes-invites-notifications-plans-and-payments)
 * and the plan levels and billing periods (GET /api/Vip/GetVipLevelList, GetVipDateTypeList).
 */

/** One model at each level and a second Standard one; nothing listens upstream: no call is made. */
const MODELS = { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_MODELS: 'basic,std:1,pro:2,ultra:3,extra:1' };

const URL = '/api/AiModel/GetModelListByVipPackageId';
const ids = (list: { aiModelId: string }[]) => list.map((m) => m.aiModelId);

describe('the models a plan unlocks', () => {
  let t: TestApp;
  let admin: TestUser;
  let user: TestUser;

  const asAdmin = (url: string, body: unknown) => api(t.app, admin).postBody(url, body);
  const unlocked = async (vipPackageId: string, who?: TestUser) => {
    const res = await api(t.app, who).get(`${URL}?vipPackageId=${encodeURIComponent(vipPackageId)}`);
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    t = await createTestApp(MODELS);
    admin = await createAdmin(t.app);
    user = await createUser(t.app);
    // A Standard model priced by tokens (saved before the order is set: a save writes its own sort).
    const saved = await asAdmin(
      '/api/admin/AiModel/Save',
      testSaveModel('std', { name: 'Std Model', description: 'Standard writing', minVipLevel: 1, pointsCost: 3, tokenPrice: { inputPer1k: 0.5, outputPer1k: 1.25 } }),
    );
    expect(saved.Code).toBe(10000);
    // An order unlike the levels' or the names': the lists must follow it.
    expect((await asAdmin('/api/admin/AiModel/Sort', { ids: ['ultra', 'std', 'basic', 'extra', 'pro'] })).Code).toBe(10000);
  });
  afterAll(() => t?.close());

  it('answers a visitor, in catalogue order, each plan with the models its level reaches and no others', async () => {
    const free = await unlocked('free');
    expect(free).toMatchObject({ Code: 10000, Data: { vipPackageId: 'free', level: 0 } });
    expect(ids(free.Data.list)).toEqual(['basic']);

    // Level boundaries: a Standard plan adds exactly the level-1 models, Advanced the level-2 one, Super all.
    const standard = (await unlocked('standard-month')).Data;
    expect(standard.level).toBe(1);
    expect(ids(standard.list)).toEqual(['std', 'basic', 'extra']);
    expect(ids((await unlocked('standard-year')).Data.list)).toEqual(['std', 'basic', 'extra']);
    expect(ids((await unlocked('advanced-month')).Data.list)).toEqual(['std', 'basic', 'extra', 'pro']);
    const superPlan = (await unlocked('super-year')).Data;
    expect(superPlan.level).toBe(3);
    expect(ids(superPlan.list)).toEqual(['ultra', 'std', 'basic', 'extra', 'pro']);
    // The Auto entry is the picker's, not a model a plan unlocks.
    expect(ids(superPlan.list)).not.toContain('auto');
  });

  it("gives each model the catalogue's fields: name, description, level and its price per message or per token", async () => {
    const [std, basic] = (await unlocked('standard-month', user)).Data.list;
    expect(std).toMatchObject({
      aiModelId: 'std',
      name: 'Std Model',
      description: 'Standard writing',
      minVipLevel: 1,
      minVipLevelName: 'Standard',
      pointsCost: 3,
      tokenPrice: { inputPer1k: 0.5, outputPer1k: 1.25 },
    });
    expect(basic).toMatchObject({ aiModelId: 'basic', minVipLevel: 0, minVipLevelName: 'Free', pointsCost: 1, tokenPrice: null });
    // The same list whoever asks: it is the plan's, not the caller's.
    expect((await unlocked('standard-month', user)).Data).toEqual((await unlocked('standard-month')).Data);
  });

  it('leaves out a model taken offline, and lists it again once it is back', async () => {
    expect(ids((await unlocked('standard-month')).Data.list)).toContain('extra');
    expect((await asAdmin('/api/admin/AiModel/Online', { aiModelId: 'extra', online: false })).Code).toBe(10000);
    expect(ids((await unlocked('standard-month')).Data.list)).toEqual(['std', 'basic']);
    expect(ids((await unlocked('super-month')).Data.list)).toEqual(['ultra', 'std', 'basic', 'pro']);
    expect((await asAdmin('/api/admin/AiModel/Online', { aiModelId: 'extra', online: true })).Code).toBe(10000);
    expect(ids((await unlocked('standard-month')).Data.list)).toEqual(['std', 'basic', 'extra']);
  });

  it('answers 10404 with a clear message for an unknown package, in the caller\'s language, and 10400 without an id', async () => {
    const unknown = await unlocked('platinum-month');
    expect(unknown).toEqual({ Code: 10404, Msg: 'There is no plan platinum-month on sale. Refresh the plan list and try again.', Data: null });
    const zh = (await api(t.app).get(`${URL}?vipPackageId=platinum-month`, { lang: 'zh-CN' })).json();
    expect(zh).toMatchObject({ Code: 10404, Msg: '没有在售的套餐 platinum-month。请刷新套餐列表后重试。' });
    const missing = (await api(t.app).get(URL)).json();
    expect(missing.Code).toBe(10400);
    expect(missing.Msg).toContain('vipPackageId');
  });

  it('hides a package that is not on sale from visitors and users, shows it to operators, and a deleted one to no one', async () => {
    const retired = { vipPackageId: 'retired-pro', level: 2, period: 'month', prices: { usd: 1500 }, online: false };
    expect((await asAdmin('/api/admin/Vip/SavePackage', retired)).Code).toBe(10000);
    expect((await unlocked('retired-pro')).Code).toBe(10404);
    expect((await unlocked('retired-pro', user)).Code).toBe(10404);
    const seen = await unlocked('retired-pro', admin);
    expect(seen).toMatchObject({ Code: 10000, Data: { vipPackageId: 'retired-pro', level: 2 } });
    expect(ids(seen.Data.list)).toEqual(['std', 'basic', 'extra', 'pro']);

    // Put on sale: everyone sees it.
    expect((await asAdmin('/api/admin/Vip/SavePackage', { ...retired, online: true })).Code).toBe(10000);
    expect(ids((await unlocked('retired-pro')).Data.list)).toEqual(['std', 'basic', 'extra', 'pro']);

    expect((await asAdmin('/api/admin/Vip/DeletePackage', { vipPackageId: 'retired-pro' })).Code).toBe(10000);
    expect((await unlocked('retired-pro')).Code).toBe(10404);
    expect((await unlocked('retired-pro', admin)).Code).toBe(10404);
  });
});

describe('plan levels and billing periods', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('lists the levels 0 to 3, named in English or Chinese, to a visitor', async () => {
    const en = await api(t.app).getBody('/api/Vip/GetVipLevelList');
    expect(en).toEqual({
      Code: 10000,
      Msg: expect.any(String),
      Data: [
        { level: 0, name: 'Free' },
        { level: 1, name: 'Standard' },
        { level: 2, name: 'Advanced' },
        { level: 3, name: 'Super' },
      ],
    });
    const zh = await api(t.app).getBody('/api/Vip/GetVipLevelList', { lang: 'zh-CN,zh;q=0.9' });
    expect(zh.Data).toEqual([
      { level: 0, name: '免费版' },
      { level: 1, name: '标准版' },
      { level: 2, name: '高级版' },
      { level: 3, name: '至尊版' },
    ]);
  });

  it('lists the billing periods a package can be sold for, with their months, to a visitor', async () => {
    const en = await api(t.app).getBody('/api/Vip/GetVipDateTypeList');
    expect(en.Code).toBe(10000);
    expect(en.Data).toEqual([
      { period: 'month', months: 1, name: 'Monthly' },
      { period: 'year', months: 12, name: 'Yearly' },
    ]);
    const zh = await api(t.app).getBody('/api/Vip/GetVipDateTypeList', { lang: 'zh' });
    expect(zh.Data.map((d: { name: string }) => d.name)).toEqual(['按月', '按年']);
    // Every period listed is one a package can be saved with.
    const admin = await createAdmin(t.app);
    for (const { period } of en.Data as { period: string }[]) {
      const saved = await api(t.app, admin).postBody('/api/admin/Vip/SavePackage', { level: 1, period, prices: { usd: 100 } });
      expect(saved).toMatchObject({ Code: 10000, Data: { period } });
    }
  });
});
