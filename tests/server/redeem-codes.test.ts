import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { redeemBatches, redeemCodes, redeemUses } from '../../server/db/schema/redeem-codes.ts';
import { userNotifications } from '../../server/db/schema/notifications.ts';
import { pointBalances, pointLedger } from '../../server/db/schema/points.ts';
import { CODE_ALPHABET, MAX_FAILURES_PER_HOUR } from '../../server/services/points/redeem-codes.ts';
import { onPostgres, useTestAppWithAdmin } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { addressesUnder, createUser, grantVip, type TestUser } from '../helpers/users.ts';

/**
 * Redeem codes (docs/economy.md#redeem-codes): operators generate, list, export and disable batches;
 * a user redeems a code once, for points and/or plan days, and every refusal reads the same.
 */

const FAILED_EN = 'Use failed, please check if the redemption code is correct';
const FAILED_ZH = '兑换失败，请检查兑换码是否正确';
const GROUPED = new RegExp(`^[${CODE_ALPHABET}]{4}(-[${CODE_ALPHABET}]{4}){3}$`);
const DAY_MS = 86_400_000;

// RedeemCode is rate limited per address: each call comes from an address of its own unless a test says.
const nextAddress = addressesUnder('10.2');

// One app for the file; its admin generates the batches.
const { t, admin } = useTestAppWithAdmin({ AUTH_RATE_LIMIT: '1000' });

const adminPost = (url: string, body: unknown, token = admin.token, lang = 'en') => api(t.app, token).postBody(`/api/admin/RedeemCode/${url}`, body, { lang });
const adminGet = (url: string, token = admin.token) => api(t.app, token).get(`/api/admin/RedeemCode/${url}`);
const generate = async (body: Record<string, unknown>) => {
  const res = await adminPost('GenerateBatch', { name: 'Test batch', count: 1, ...body });
  expect(res.Code, res.Msg).toBe(10000);
  return res.Data.batchId as string;
};
const codesOf = async (batchId: string): Promise<{ code: string; uses: number }[]> => (await adminGet(`GetCodeList?batchId=${batchId}&count=100`)).json().Data.list;
const firstCode = async (batchId: string) => (await codesOf(batchId))[0]!.code;
const redeem = (user: TestUser, code: string, opts: { lang?: string; address?: string } = {}) =>
  api(t.app, user).postBody('/api/User/RedeemCode', { code }, { lang: opts.lang ?? 'en', remoteAddress: opts.address ?? nextAddress() });
const me = async (user: TestUser) => (await api(t.app, user).getBody('/api/User/GetUserByLogin')).Data;
const usesOf = async (code: string) => (await t.database.db.select().from(redeemCodes).where(eq(redeemCodes.code, code.replaceAll('-', ''))))[0]!.uses;

describe('redeem codes: batches and redeeming', () => {
  it('generates a batch, lists it with its codes, exports it as CSV and disables it', async () => {
    const batchId = await generate({ name: 'Spring promo 2030', count: 5, points: 50, usesPerCode: 3 });
    const list = (await adminGet('GetBatchList?page=1&count=10')).json().Data;
    expect(list.list[0]).toMatchObject({
      id: batchId,
      name: 'Spring promo 2030',
      points: 50,
      planDays: 0,
      planLevel: 0,
      usesPerCode: 3,
      expiresAt: null,
      disabled: false,
      codeCount: 5,
      redeemedCount: 0,
    });
    expect(Date.parse(list.list[0].createTime)).toBeGreaterThan(Date.now() - 60_000);

    const codes = await codesOf(batchId);
    expect(codes).toHaveLength(5);
    expect(new Set(codes.map((c) => c.code)).size).toBe(5);
    for (const c of codes) expect(c).toEqual({ code: expect.stringMatching(GROUPED), uses: 0 });
    const paged = (await adminGet(`GetCodeList?batchId=${batchId}&page=2&count=2`)).json().Data;
    expect(paged).toEqual({ total: 5, list: codes.slice(2, 4) });

    const exported = await adminGet(`ExportBatch?batchId=${batchId}`);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(exported.headers['content-disposition']).toBe(`attachment; filename="redeem-codes-Spring-promo-2030-${batchId.slice(0, 8)}.csv"`);
    expect(exported.headers['cache-control']).toBe('no-store');
    const rows = exported.body.trimEnd().split('\r\n');
    expect(rows).toEqual(['code,uses', ...codes.map((c) => `${c.code},0`)]);

    const user = await createUser(t.app);
    expect((await adminPost('DisableBatch', { batchId, disabled: true })).Data).toMatchObject({ id: batchId, disabled: true });
    expect(await redeem(user, codes[0]!.code)).toEqual({ Code: 10400, Msg: FAILED_EN, Data: null });
    expect((await adminPost('DisableBatch', { batchId, disabled: false })).Data).toMatchObject({ disabled: false });
    expect((await redeem(user, codes[0]!.code)).Code).toBe(10000);
    const after = await adminGet(`ExportBatch?batchId=${batchId}`);
    expect(after.body).toContain(`${codes[0]!.code},1\r\n`);
    expect((await adminGet('GetBatchList')).json().Data.list[0]).toMatchObject({ id: batchId, redeemedCount: 1 });
  });

  it('redeems whatever the case, dashes and spaces, once per user, on the ledger with the batch name', async () => {
    const batchId = await generate({ name: 'Welcome pack', points: 40, usesPerCode: 5 });
    const code = await firstCode(batchId);
    const user = await createUser(t.app);
    const typed = ` ${code.toLowerCase().replaceAll('-', ' ')} `;
    expect(await redeem(user, typed)).toEqual({ Code: 10000, Msg: '', Data: { kind: 'points', points: 40, planDays: 0, planLevel: 0, balance: 40 } });
    // The same user again, in any spelling: refused, nothing changes.
    expect(await redeem(user, code)).toEqual({ Code: 10400, Msg: FAILED_EN, Data: null });
    expect(await redeem(user, code.replaceAll('-', ''), { lang: 'zh-CN' })).toEqual({ Code: 10400, Msg: FAILED_ZH, Data: null });
    expect(await usesOf(code)).toBe(1);
    const entries = await t.database.db.select().from(pointLedger).where(eq(pointLedger.userId, user.userId));
    expect(entries.map((e) => [e.reason, e.delta, e.note, e.refId, e.idempotencyKey])).toEqual([
      ['redeem', 40, 'Welcome pack', batchId, `redeem:${code.replaceAll('-', '')}:${user.userId}`],
    ]);
    const [note] = await t.database.db.select().from(userNotifications).where(eq(userNotifications.userId, user.userId));
    expect(note).toMatchObject({ kind: 'redeem', titleKey: 'notifications.redeem.title', bodyKey: 'notifications.redeem.body' });
    expect(JSON.parse(note!.params)).toEqual({ points: 40, planDays: 0 });
    // Another user may redeem the same code.
    const other = await createUser(t.app);
    expect((await redeem(other, code)).Data).toMatchObject({ kind: 'points', balance: 40 });
  });

  it('respects usesPerCode', async () => {
    const code = await firstCode(await generate({ points: 5, usesPerCode: 2 }));
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await redeem(await createUser(t.app), code)).Code);
    expect(answers).toEqual([10000, 10000, 10400]);
    expect(await usesOf(code)).toBe(2);
  });

  it('refuses unknown, expired and disabled codes with one and the same message', async () => {
    const user = await createUser(t.app);
    const expiredBatch = await generate({ points: 5, expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    const expired = await firstCode(expiredBatch);
    await t.database.db.update(redeemBatches).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(redeemBatches.id, expiredBatch));
    const disabledBatch = await generate({ points: 5 });
    const disabled = await firstCode(disabledBatch);
    await adminPost('DisableBatch', { batchId: disabledBatch, disabled: true });
    const usedUp = await firstCode(await generate({ points: 5 }));
    expect((await redeem(await createUser(t.app), usedUp)).Code).toBe(10000);
    const unknown = 'ABCD-EFGH-JKLM-NPQR';
    for (const code of [expired, disabled, usedUp, unknown, 'not a code', '', '0000-1111-OOOO-IIII']) {
      expect(await redeem(user, code), code).toEqual({ Code: 10400, Msg: FAILED_EN, Data: null });
      expect(await redeem(user, code, { lang: 'zh-CN' }), code).toEqual({ Code: 10400, Msg: FAILED_ZH, Data: null });
    }
    expect(await t.database.db.select().from(redeemUses).where(eq(redeemUses.userId, user.userId))).toEqual([]);
    expect(await t.database.db.select().from(pointLedger).where(eq(pointLedger.userId, user.userId))).toEqual([]);
  });
});

describe('redeem codes: plan days and guessing', () => {
  it('extends the plan by its days: after the current order at that level or above, else from now', async () => {
    const user = await createUser(t.app);
    const thirty = await firstCode(await generate({ name: 'Plan month', planDays: 30, planLevel: 2 }));
    const before = Date.now();
    expect((await redeem(user, thirty)).Data).toEqual({ kind: 'plan', points: 0, planDays: 30, planLevel: 2, balance: 0 });
    let plan = (await me(user)).vipOrder;
    expect(plan).toMatchObject({ vipPackageLevel: 2, vipPackageName: 'Advanced' });
    expect(Date.parse(plan.endTime)).toBeGreaterThanOrEqual(before + 30 * DAY_MS - 1000);
    expect(Date.parse(plan.endTime)).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS);

    // Ten more days at the same level come after the thirty; points and days together are 'both'.
    const both = await firstCode(await generate({ planDays: 10, planLevel: 2, points: 7 }));
    expect((await redeem(user, both)).Data).toEqual({ kind: 'both', points: 7, planDays: 10, planLevel: 2, balance: 7 });
    const extended = (await me(user)).vipOrder;
    expect(extended.vipPackageLevel).toBe(2);
    expect(Date.parse(extended.endTime) - Date.parse(plan.endTime)).toBeGreaterThanOrEqual(10 * DAY_MS - 1000);
    expect(Date.parse(extended.endTime) - Date.parse(plan.endTime)).toBeLessThanOrEqual(10 * DAY_MS + 1000);

    // A lower level's order does not delay a higher level's days.
    const standard = await createUser(t.app);
    await grantVip(t.app, standard.userId, 1, 100);
    const superDays = await firstCode(await generate({ planDays: 5, planLevel: 3 }));
    expect((await redeem(standard, superDays)).Code).toBe(10000);
    plan = (await me(standard)).vipOrder;
    expect(plan).toMatchObject({ vipPackageLevel: 3, vipPackageName: 'Super' });
    expect(Date.parse(plan.endTime)).toBeLessThanOrEqual(Date.now() + 5 * DAY_MS);
  });

  it('limits guessing: per address by the route, per user by failed attempts in the last hour', async () => {
    const guesser = await createUser(t.app);
    const code = await firstCode(await generate({ points: 3 }));
    for (let i = 0; i < MAX_FAILURES_PER_HOUR; i++) expect((await redeem(guesser, `WRONG-${i}`)).Code).toBe(10400);
    const blocked = await redeem(guesser, code);
    expect(blocked).toEqual({ Code: 10429, Msg: 'Too many wrong redemption codes. Please try again in 60 minutes.', Data: null });
    expect((await redeem(guesser, code, { lang: 'zh-CN' })).Msg).toBe('错误的兑换码输入次数过多，请在 60 分钟后重试。');
    expect(await usesOf(code)).toBe(0);
    // Other users are not affected, and successes do not count.
    const honest = await createUser(t.app);
    expect((await redeem(honest, code)).Code).toBe(10000);

    const fromOneAddress = await createUser(t.app);
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await redeem(fromOneAddress, `WRONG-${i}`, { address: '10.3.0.1' }));
    expect(answers.slice(0, 10).every((a) => a.Code === 10400)).toBe(true);
    expect(answers[10]).toMatchObject({ Code: 10429, Msg: expect.stringMatching(/^Too many attempts\. Please try again in \d+ seconds\.$/) });
  });
});

describe('redeem codes: bad input, access and large batches', () => {
  it('answers bad batches and unknown ids as bad input or not found, in the caller language', async () => {
    const bad: [Record<string, unknown>, string?][] = [
      [{ name: 'x', count: 0, points: 1 }],
      [{ name: 'x', count: 10_001, points: 1 }],
      [{ name: 'x', count: 1 }, 'A batch must give points or plan days (or both).'],
      [{ name: 'x', count: 1, planDays: 3 }, 'planLevel: Plan days need a plan level from 1 (Standard) to 3 (Super).'],
      [{ name: 'x', count: 1, points: 1, expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt: The expiry date must be in the future.'],
      [{ name: 'x', count: 1, points: 1, expiresAt: 'tomorrow' }],
      [{ name: 'x', count: 1, points: 1.5 }],
      [{ name: 'x', count: 1, points: 1_000_001 }],
      [{ name: 'x', count: 1, planDays: 3661, planLevel: 1 }],
      [{ name: 'x', count: 1, planDays: 1, planLevel: 4 }],
      [{ name: 'x', count: 1, points: 1, usesPerCode: 0 }],
      [{ name: '  ', count: 1, points: 1 }],
    ];
    for (const [body, message] of bad) {
      const res = await adminPost('GenerateBatch', body);
      expect(res.Code, JSON.stringify(body)).toBe(10400);
      if (message) expect(res.Msg).toBe(`Invalid request: ${message}`);
    }
    const zh = await adminPost('GenerateBatch', { name: 'x', count: 1 }, admin.token, 'zh-CN');
    expect(zh).toEqual({ Code: 10400, Msg: '请求无效：一批兑换码必须赠送积分或套餐天数（或两者）。', Data: null });
    expect((await adminGet('GetCodeList')).json().Code).toBe(10400);
    expect((await adminGet('GetCodeList?batchId=nope')).json().Code).toBe(10404);
    expect((await adminGet('ExportBatch?batchId=nope')).json()).toMatchObject({ Code: 10404, Data: null });
    expect((await adminPost('DisableBatch', { batchId: 'nope', disabled: true })).Code).toBe(10404);
    expect((await adminPost('DisableBatch', { batchId: 'nope', disabled: 'yes' })).Code).toBe(10400);
    const user = await createUser(t.app);
    expect((await redeem(user, 'x'.repeat(201))).Code).toBe(10400);
    expect((await api(t.app).postBody('/api/User/RedeemCode', { code: 'x' })).Code).toBe(10402);
  });

  it('keeps the admin routes to admins', async () => {
    const user = await createUser(t.app);
    const batchId = await generate({ points: 1 });
    expect((await adminPost('GenerateBatch', { name: 'x', count: 1, points: 1 }, user.token)).Code).toBe(10403);
    expect((await adminPost('DisableBatch', { batchId, disabled: true }, user.token)).Code).toBe(10403);
    for (const url of ['GetBatchList', `GetCodeList?batchId=${batchId}`, `ExportBatch?batchId=${batchId}`]) {
      expect((await adminGet(url, user.token)).json().Code, url).toBe(10403);
    }
    expect((await t.database.db.select().from(redeemBatches).where(eq(redeemBatches.id, batchId)))[0]!.disabled).toBe(false);
  });

  it('generates large batches of distinct codes', async () => {
    const batchId = await generate({ count: 2500, points: 1 });
    const [{ n, distinct }] = (
      await t.database.db.execute<{ n: number; distinct: number }>(sql`select count(*)::int as n, count(distinct code)::int as distinct from redeem_codes where batch_id = ${batchId}`)
    ).rows;
    expect([n, distinct]).toEqual([2500, 2500]);
    const csv = (await adminGet(`ExportBatch?batchId=${batchId}`)).body.trimEnd().split('\r\n');
    expect(csv).toHaveLength(2501);
  });
});

// PGlite has one connection: parallel work there is serial and proves nothing.
describe.runIf(onPostgres)('redeem codes on PostgreSQL, at once', () => {
  let crowd: TestUser[];
  beforeAll(async () => {
    crowd = [];
    for (let i = 0; i < 50; i++) crowd.push(await createUser(t.app));
  });

  const ledgerFor = async (key: string) => t.database.db.select().from(pointLedger).where(eq(pointLedger.idempotencyKey, key));

  it('lets exactly one of 50 users redeem a single-use code', async () => {
    const code = await firstCode(await generate({ points: 9 }));
    const answers = await Promise.all(crowd.map((u) => redeem(u, code)));
    const winners = crowd.filter((_, i) => answers[i].Code === 10000);
    expect(winners).toHaveLength(1);
    expect(answers.filter((a) => a.Code === 10400 && a.Msg === FAILED_EN)).toHaveLength(49);
    expect(await usesOf(code)).toBe(1);
    const entries = await t.database.db.select().from(pointLedger).where(sql`${pointLedger.idempotencyKey} like ${`redeem:${code.replaceAll('-', '')}:%`}`);
    expect(entries).toHaveLength(1);
    expect(await ledgerFor(`redeem:${code.replaceAll('-', '')}:${winners[0]!.userId}`)).toHaveLength(1);
  });

  it('lets exactly 10 of 50 users redeem a code of usesPerCode 10', async () => {
    const code = await firstCode(await generate({ points: 4, usesPerCode: 10 }));
    const answers = await Promise.all(crowd.map((u) => redeem(u, code)));
    expect(answers.filter((a) => a.Code === 10000)).toHaveLength(10);
    expect(await usesOf(code)).toBe(10);
    expect(await t.database.db.select().from(redeemUses).where(eq(redeemUses.code, code.replaceAll('-', '')))).toHaveLength(10);
    const balances = await t.database.db.execute<{ bad: number }>(sql`
      select count(*)::int as bad from ${pointBalances} b
      where b.balance <> (select coalesce(sum(delta), 0) from ${pointLedger} l where l.user_id = b.user_id)`);
    expect(balances.rows[0]!.bad).toBe(0);
  });

  it("adds up one user's plan days redeemed at once", async () => {
    const user = crowd[0]!;
    const codes = (await codesOf(await generate({ count: 5, planDays: 3, planLevel: 1, usesPerCode: 1 }))).map((c) => c.code);
    const start = Date.now();
    const answers = await Promise.all(codes.map((c) => redeem(user, c)));
    expect(answers.map((a) => a.Code)).toEqual([10000, 10000, 10000, 10000, 10000]);
    const [{ end }] = (
      await t.database.db.execute<{ end: string }>(sql`select max(end_time) as end from vip_orders where user_id = ${user.userId} and package_level = 1`)
    ).rows;
    expect(new Date(end).getTime()).toBeGreaterThanOrEqual(start + 15 * DAY_MS - 1000);
  });
});
