import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { adminAuditLog } from '../../server/db/schema/audit.ts';
import { campaigns } from '../../server/db/schema/campaigns.ts';
import { pointBalances, pointLedger } from '../../server/db/schema/points.ts';
import { users } from '../../server/db/schema/users.ts';
import { TINY_PNG } from '../fixtures/fake-images.ts';
import { api } from '../helpers/api.ts';
import { useTestAppWithAdmin } from '../helpers/app.ts';
import { auth, createUser, grantVip, type TestUser } from '../helpers/users.ts';

/**
 * Campaigns (MarketActivity, docs/api.md#campaigns): an operator saves a campaign with a window, an
 * audience and a reward; users see the ones for them in their language, a view counts once, a
 * claim credits once (points through the ledger, or a coupon's code that checkout accepts) and
 * never past the budget, also under concurrency (this file runs on PostgreSQL too:
 * tests/database-behaviour.txt).
 */

const HOUR = 3_600_000;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

describe('campaigns', () => {
  const { t, admin } = useTestAppWithAdmin({ AUTH_RATE_LIMIT: '1000' });

  const save = async (body: Record<string, unknown>) => {
    const res = await api(t.app, admin).postBody('/api/admin/MarketActivity/Save', {
      titleEn: 'Spring sale',
      titleZh: '春季促销',
      bodyEn: 'Points for everyone',
      bodyZh: '人人有积分',
      startTime: iso(-HOUR),
      endTime: iso(24 * HOUR),
      ...body,
    });
    expect(res.Code, res.Msg).toBe(10000);
    return res.Data;
  };
  const listFor = async (user: TestUser, lang = 'en', all = false) => {
    const res = await api(t.app, user).getBody(`/api/MarketActivity/GetList?all=${all}`, { lang });
    expect(res.Code, res.Msg).toBe(10000);
    return res.Data as Array<{ campaignId: string; title: string; body: string; claim: unknown; dismissed: boolean; claimsLeft: number | null }>;
  };
  const ids = async (user: TestUser, lang = 'en') => (await listFor(user, lang)).map((c) => c.campaignId);
  const claim = (user: TestUser, campaignId: string, lang = 'en') => api(t.app, user).postBody('/api/MarketActivity/Claim', { campaignId }, { lang });
  const ledgerOf = (userId: string, campaignId: string) =>
    t.database.db.select().from(pointLedger).where(and(eq(pointLedger.userId, userId), eq(pointLedger.refId, campaignId)));
  const balanceOf = async (userId: string) => (await t.database.db.select().from(pointBalances).where(eq(pointBalances.userId, userId)))[0]?.balance ?? 0;

  it('shows each user the running campaigns of their audience, in their language', async () => {
    const running = await save({});
    const later = await save({ startTime: iso(HOUR), endTime: iso(2 * HOUR) });
    const over = await save({ startTime: iso(-2 * HOUR), endTime: iso(-HOUR) });
    const paying = await save({ planLevels: [2, 3] });
    const chinese = await save({ language: 'zh' });
    const newcomers = await save({ newUserDays: 7 });
    const free = await createUser(t.app);
    const subscriber = await createUser(t.app);
    await grantVip(t.app, subscriber.userId, 2);
    const veteran = await createUser(t.app);
    await t.database.db.update(users).set({ createdAt: new Date(Date.now() - 30 * 24 * HOUR) }).where(eq(users.id, veteran.userId));

    const seenByFree = await ids(free);
    expect(seenByFree).toEqual(expect.arrayContaining([running.campaignId, newcomers.campaignId]));
    expect(seenByFree).not.toContain(later.campaignId);
    expect(seenByFree).not.toContain(over.campaignId);
    expect(seenByFree).not.toContain(paying.campaignId);
    expect(seenByFree).not.toContain(chinese.campaignId);
    expect(await ids(subscriber)).toContain(paying.campaignId);
    expect(await ids(veteran)).not.toContain(newcomers.campaignId);
    expect(await ids(veteran)).toContain(running.campaignId);

    // A Chinese user sees the Chinese title and text, and the campaigns for Chinese users.
    const zh = await listFor(free, 'zh');
    expect(zh.map((c) => c.campaignId)).toContain(chinese.campaignId);
    expect(zh.find((c) => c.campaignId === running.campaignId)).toMatchObject({ title: '春季促销', body: '人人有积分' });
    expect((await listFor(free)).find((c) => c.campaignId === running.campaignId)).toMatchObject({ title: 'Spring sale' });

    // One outside the audience or the window is not found, and cannot be viewed or claimed.
    expect((await api(t.app, free).getBody(`/api/MarketActivity/GetById?campaignId=${paying.campaignId}`)).Code).toBe(10404);
    expect((await api(t.app, free).postBody('/api/MarketActivity/View', { campaignId: over.campaignId })).Code).toBe(10404);
    const refused = await api(t.app, free).postBody('/api/MarketActivity/Claim', { campaignId: later.campaignId }, { lang: 'zh' });
    expect(refused).toMatchObject({ Code: 10404, Msg: '该活动已结束或不适用于你。' });
  });

  it('counts a view once per user, and hides a dismissed card but keeps it on the campaigns page', async () => {
    const campaign = await save({});
    const [a, b] = await Promise.all([createUser(t.app), createUser(t.app)]);
    const view = (u: TestUser) => api(t.app, u).postBody('/api/MarketActivity/View', { campaignId: campaign.campaignId });
    expect((await view(a)).Data).toEqual({ counted: true });
    expect((await view(a)).Data).toEqual({ counted: false });
    await Promise.all([view(b), view(b), view(b)]);
    const figures = (await api(t.app, admin).getBody(`/api/admin/MarketActivity/GetById?campaignId=${campaign.campaignId}`)).Data;
    expect(figures).toMatchObject({ views: 2, claims: 0, status: 'active' });

    expect((await api(t.app, a).postBody('/api/MarketActivity/Dismiss', { campaignId: campaign.campaignId })).Code).toBe(10000);
    expect(await ids(a)).not.toContain(campaign.campaignId);
    expect((await listFor(a, 'en', true)).find((c) => c.campaignId === campaign.campaignId)).toMatchObject({ dismissed: true });
    expect(await ids(b)).toContain(campaign.campaignId);
  });

  it('credits a points reward once, through the ledger, however many claims arrive at once', async () => {
    const campaign = await save({ rewardType: 'points', rewardPoints: 50 });
    const user = await createUser(t.app);
    const before = await balanceOf(user.userId);
    const answers = await Promise.all(Array.from({ length: 20 }, () => claim(user, campaign.campaignId)));
    const won = answers.filter((a) => a.Code === 10000);
    expect(won).toHaveLength(1);
    expect(won[0]!.Data).toMatchObject({ rewardType: 'points', points: 50, couponCode: null, balance: before + 50 });
    expect(answers.filter((a) => a.Code !== 10000).every((a) => a.Code === 10409)).toBe(true);
    expect(await ledgerOf(user.userId, campaign.campaignId)).toMatchObject([{ delta: 50, reason: 'campaign', idempotencyKey: `campaign:${campaign.campaignId}:${user.userId}` }]);
    expect(await balanceOf(user.userId)).toBe(before + 50);
    // Later: refused in the user's language, and the card shows the claim.
    expect(await claim(user, campaign.campaignId, 'zh')).toMatchObject({ Code: 10409, Msg: '你已经领取过该奖励。' });
    expect((await listFor(user)).find((c) => c.campaignId === campaign.campaignId)).toMatchObject({ claim: { points: 50 } });
    const figures = (await api(t.app, admin).getBody(`/api/admin/MarketActivity/GetById?campaignId=${campaign.campaignId}`)).Data;
    expect(figures).toMatchObject({ claims: 1, pointsCost: 50 });
  });

  it('never gives more claims than the budget, when different users claim at once', async () => {
    const campaign = await save({ rewardType: 'points', rewardPoints: 5, maxClaims: 3 });
    const people = await Promise.all(Array.from({ length: 10 }, () => createUser(t.app)));
    const answers = await Promise.all(people.map((p) => claim(p, campaign.campaignId)));
    expect(answers.filter((a) => a.Code === 10000)).toHaveLength(3);
    expect(answers.filter((a) => a.Code !== 10000).every((a) => a.Code === 10400 && a.Msg === 'All the rewards of this campaign have been claimed.')).toBe(true);
    const credited = await t.database.db.select().from(pointLedger).where(eq(pointLedger.refId, campaign.campaignId));
    expect(credited).toHaveLength(3);
    const [row] = await t.database.db.select().from(campaigns).where(eq(campaigns.id, campaign.campaignId));
    expect(row!.claimCount).toBe(3);
    const claims = (await api(t.app, admin).getBody(`/api/admin/MarketActivity/GetClaimList?campaignId=${campaign.campaignId}`)).Data;
    expect(claims.total).toBe(3);
    expect(claims.list[0]).toMatchObject({ rewardType: 'points', points: 5, email: expect.stringContaining('@') });
    // The budget cannot go below the claims made.
    const lowered = await api(t.app, admin).postBody('/api/admin/MarketActivity/Save', { ...toSave(campaign), maxClaims: 2 });
    expect(lowered.Code).toBe(10400);
  });

  it('hands out a coupon reward whose code checkout accepts', async () => {
    const code = `CAMP-${randomUUID().slice(0, 6)}`.toUpperCase();
    const coupon = (await api(t.app, admin).postBody('/api/admin/Coupons/Save', { code, percentOff: 25 })).Data;
    const campaign = await save({ rewardType: 'coupon', rewardCouponId: coupon.couponId });
    const user = await createUser(t.app);
    const card = (await listFor(user)).find((c) => c.campaignId === campaign.campaignId)!;
    expect(card).toMatchObject({ rewardType: 'coupon', rewardText: 'A coupon: 25% off a plan', claim: null });
    const claimed = await claim(user, campaign.campaignId);
    expect(claimed.Data).toMatchObject({ rewardType: 'coupon', couponCode: code, points: null, balance: null });
    const checked = await api(t.app, user).getBody(`/api/Coupons/CheckCoupon?code=${claimed.Data.couponCode}`);
    expect(checked.Data).toMatchObject({ valid: true, percentOff: 25 });
    expect(await ledgerOf(user.userId, campaign.campaignId)).toEqual([]);
    // A disabled coupon is not handed out.
    await api(t.app, admin).postBody('/api/admin/Coupons/Disable', { couponId: coupon.couponId, disabled: true });
    expect((await claim(await createUser(t.app), campaign.campaignId)).Code).toBe(10400);
  });

  it('refuses inconsistent campaigns with a message saying what to fix', async () => {
    const base = { titleEn: 'A', titleZh: '甲', startTime: iso(0), endTime: iso(HOUR) };
    const bad = async (body: Record<string, unknown>, lang = 'en') => {
      const res = await api(t.app, admin).postBody('/api/admin/MarketActivity/Save', { ...base, ...body }, { lang });
      expect(res.Code).toBe(10400);
      return res.Msg as string;
    };
    expect(await bad({ endTime: iso(-HOUR) })).toContain('The end must come after the start.');
    expect(await bad({ endTime: iso(-HOUR) }, 'zh')).toContain('结束时间必须晚于开始时间。');
    expect(await bad({ rewardType: 'points' })).toContain('A points reward needs its points');
    expect(await bad({ rewardType: 'none', rewardPoints: 5 })).toContain('A points reward needs its points');
    expect(await bad({ rewardType: 'coupon' })).toContain('A coupon reward needs its coupon');
    expect(await bad({ rewardType: 'coupon', rewardCouponId: 'no-such-coupon' })).toBe('There is no coupon no-such-coupon. Refresh the coupon list and choose again.');
    expect(await bad({ maxClaims: 3 })).toContain('leave maxClaims empty');
    expect(await bad({ imageUrl: 'http://insecure.example.com/a.png' })).toContain('https://');
    expect(await bad({ titleEn: '' })).toContain('titleEn');
    expect(await t.database.db.select().from(campaigns).where(eq(campaigns.titleEn, 'A'))).toEqual([]);
  });

  it('lets only administrators manage campaigns, and audits their writes', async () => {
    const user = await createUser(t.app);
    expect((await api(t.app, user).getBody('/api/admin/MarketActivity/GetList')).Code).toBe(10403);
    expect((await api(t.app, user).postBody('/api/admin/MarketActivity/Save', { titleEn: 'x', titleZh: 'x', startTime: iso(0), endTime: iso(HOUR) })).Code).toBe(10403);
    expect((await api(t.app).getBody('/api/MarketActivity/GetList')).Code).toBe(10402);

    const campaign = await save({ rewardType: 'points', rewardPoints: 1 });
    const ended = await api(t.app, admin).postBody('/api/admin/MarketActivity/End', { campaignId: campaign.campaignId });
    expect(ended.Data.status).toBe('ended');
    expect(await ids(user)).not.toContain(campaign.campaignId);
    expect((await claim(user, campaign.campaignId)).Code).toBe(10404);
    expect((await api(t.app, admin).postBody('/api/admin/MarketActivity/Delete', { campaignId: campaign.campaignId })).Code).toBe(10000);
    const list = (await api(t.app, admin).getBody('/api/admin/MarketActivity/GetList?count=100')).Data;
    expect(list.list.map((c: { campaignId: string }) => c.campaignId)).not.toContain(campaign.campaignId);
    const audited = await t.database.db.select().from(adminAuditLog).where(and(eq(adminAuditLog.targetType, 'campaign'), eq(adminAuditLog.targetId, campaign.campaignId)));
    expect(audited.map((a) => a.action).sort()).toEqual(['MarketActivity/Delete', 'MarketActivity/End', 'MarketActivity/Save'].sort());
  });
});

describe('campaign pictures', () => {
  const { t, admin } = useTestAppWithAdmin();

  /** UploadImage with one file, as the console's form sends it. */
  const upload = async (who: TestUser, bytes: Buffer, name: string) => {
    const form = new FormData();
    form.append('imageFile', new Blob([new Uint8Array(bytes)]), name);
    const encoded = new Response(form);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/MarketActivity/UploadImage',
      headers: { ...auth(who.token), 'content-type': encoded.headers.get('content-type')! },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    return res.json();
  };

  it('stores an uploaded picture as WebP, serves it by its address, and takes that address as imageUrl', async () => {
    const uploaded = await upload(admin, TINY_PNG, 'banner.png');
    expect(uploaded.Code, uploaded.Msg).toBe(10000);
    expect(uploaded.Data.imageUrl).toBe(`/api/MarketActivity/GetImage?imageId=${uploaded.Data.imageId}`);
    const served = await api(t.app).get(uploaded.Data.imageUrl);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.rawPayload.subarray(8, 12).toString()).toBe('WEBP');
    const saved = await api(t.app, admin).postBody('/api/admin/MarketActivity/Save', {
      titleEn: 'Banner',
      titleZh: '横幅',
      startTime: iso(-HOUR),
      endTime: iso(HOUR),
      imageUrl: uploaded.Data.imageUrl,
    });
    expect(saved.Data.imageUrl).toBe(uploaded.Data.imageUrl);
    expect((await api(t.app).get('/api/MarketActivity/GetImage?imageId=0f8fad5b-d9cb-469f-a165-70867728950e')).statusCode).toBe(404);
  });

  it('refuses a file that is not a picture, and anyone but an administrator', async () => {
    const refused = await upload(admin, Buffer.from('not a picture at all'), 'banner.png');
    expect(refused.Code).not.toBe(10000);
    expect(refused.Msg).toContain('banner.png');
    expect((await upload(await createUser(t.app), TINY_PNG, 'banner.png')).Code).toBe(10403);
  });
});

/** A campaign as the console shows it, back into what Save takes. */
function toSave(c: Record<string, unknown>) {
  const { campaignId, titleEn, titleZh, bodyEn, bodyZh, startTime, endTime, planLevels, language, rewardType, rewardPoints, maxClaims } = c;
  return { campaignId, titleEn, titleZh, bodyEn, bodyZh, startTime, endTime, planLevels, language, rewardType, rewardPoints, maxClaims };
}
