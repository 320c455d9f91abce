import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { plugins } from '../../server/db/schema/plugins.ts';
import { pointBalances, pointLedger } from '../../server/db/schema/points.ts';
import { catalogueChanged } from '../../server/services/catalogue/catalogue.ts';
import { chargePoints, creditPoints, refundPoints } from '../../server/services/points/ledger.ts';
import { startFakeImages, type FakeImages } from '../fixtures/fake-images.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { parseChatStream } from '../helpers/chat.ts';
import { api } from '../helpers/api.ts';
import { createUser } from '../helpers/users.ts';

/**
 * A refund gives each part back to where it came from (docs/economy.md#the-ledger): the part a use
 * took from today's free allowance to today's allowance, the part it took from the balance to the
 * balance; after the day changed, the allowance part lapses. Never does an allowance become balance.
 */

const ALLOWANCE = 5;

describe('refunds return each part to where it came from', () => {
  let fake: FakeOpenAI;
  let images: FakeImages;
  let t: TestApp;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    images = await startFakeImages();
    t = await createTestApp({
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: fake.baseUrl,
      OPENAI_MODELS: 'pricey,tool-model',
      FREE_DAILY_POINTS: String(ALLOWANCE),
      AUTH_RATE_LIMIT: '1000',
      IMAGES_BASE_URL: images.baseUrl,
      IMAGES_API_KEY: 'img-key',
      IMAGES_MODEL: 'fake-draw',
    });
    await t.database.db.execute(sql`update ai_models set points_cost = 3 where id = 'pricey'`);
    await t.database.db.execute(sql`update ai_models set points_cost = 0 where id = 'tool-model'`);
    await catalogueChanged(t.app.ctx);
    await t.database.db.update(plugins).set({ pointsCost: 3 }).where(eq(plugins.toolName, 'read_url'));
    await t.database.db.update(plugins).set({ pointsCost: 4 }).where(eq(plugins.toolName, 'generate_image'));
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    await images?.close();
  });
  beforeEach(() => {
    fake.reset();
    images.reset();
  });

  const stateOf = async (userId: string) => {
    const [row] = await t.database.db
      .select({ balance: pointBalances.balance, daily: sql<number>`case when ${pointBalances.dailyDay} = current_date then ${pointBalances.dailyLeft} else ${ALLOWANCE} end`.mapWith(Number) })
      .from(pointBalances)
      .where(eq(pointBalances.userId, userId));
    const entries = await t.database.db.select().from(pointLedger).where(eq(pointLedger.userId, userId));
    return { ...row!, ledgerSum: entries.reduce((n, e) => n + e.delta, 0), refunds: entries.filter((e) => e.reason === 'refund').map((e) => [e.delta, e.allowance]) };
  };
  /** A user with 10 points and `daily` of today's allowance left. */
  const userWith = async (daily: number) => {
    const user = await createUser(t.app);
    await creditPoints(t.database.db, { userId: user.userId, delta: 10, kind: 'admin', key: `seed:${user.userId}` });
    if (daily < ALLOWANCE) expect(await chargePoints(t.database.db, user.userId, ALLOWANCE - daily, ALLOWANCE, { kind: 'draw', key: `use:${user.userId}` })).toBe(true);
    expect(await stateOf(user.userId)).toMatchObject({ balance: 10, daily });
    return user;
  };

  it('a message whose answer failed before any text: 2 back to today\'s allowance, 1 to the balance, once', async () => {
    const user = await userWith(2);
    fake.script('pricey', { status: 500 });
    const events = parseChatStream((await api(t.app, user).post('/api/Chat/AddMessage', { aiModelId: 'pricey', inputMessage: 'hi', chatMediaIds: [] })).body);
    expect(events.at(-1)).toMatchObject({ Code: 10503 });
    const messageId = events[0]!.Data.ChatMessageId as string;
    expect(await stateOf(user.userId)).toEqual({ balance: 10, daily: 2, ledgerSum: 10, refunds: [[1, -2]] });
    // Given back again (a replay): nothing more.
    await refundPoints(t.database.db, user.userId, 3, { key: `refund:message:${messageId}`, refId: messageId });
    expect(await stateOf(user.userId)).toEqual({ balance: 10, daily: 2, ledgerSum: 10, refunds: [[1, -2]] });
  });

  it('a refund after the day changed: the balance part comes back, the allowance part lapses', async () => {
    const user = await userWith(ALLOWANCE);
    const messageId = randomUUID();
    // 5 from the allowance, 1 from the balance, yesterday.
    expect(await chargePoints(t.database.db, user.userId, 6, ALLOWANCE, { kind: 'message', key: `message:${messageId}`, refId: messageId })).toBe(true);
    await t.database.db.execute(sql`update point_ledger set created_at = created_at - interval '1 day' where idempotency_key = ${`message:${messageId}`}`);
    await t.database.db.execute(sql`update point_balances set daily_day = current_date - 1 where user_id = ${user.userId}`);
    await refundPoints(t.database.db, user.userId, 6, { key: `refund:message:${messageId}`, refId: messageId });
    // Today's allowance is today's (5), not 5 more; the balance has its 1 back, not 6.
    expect(await stateOf(user.userId)).toEqual({ balance: 10, daily: ALLOWANCE, ledgerSum: 10, refunds: [[1, 0]] });
  });

  it('a plugin call that failed: its allowance part back to today\'s allowance, its balance part to the balance', async () => {
    const user = await userWith(1);
    fake.script('tool-model', { toolCalls: [{ name: 'read_url', arguments: { url: 'http://169.254.169.254/latest/meta-data/' } }], chunks: ['Cannot read it.'] });
    const events = parseChatStream((await api(t.app, user).post('/api/Chat/AddMessage', { aiModelId: 'tool-model', inputMessage: 'Read it', pluginIds: ['read_url'], chatMediaIds: [] })).body);
    expect(events.at(-1)).toMatchObject({ Code: 10000 });
    expect(await stateOf(user.userId)).toEqual({ balance: 10, daily: 1, ledgerSum: 10, refunds: [[2, -1]] });
  });

  it('a drawing that failed: the same', async () => {
    const user = await userWith(3);
    images.failWith(500);
    expect(await api(t.app, user).postBody('/api/Chat/AddDraw', { prompt: 'a lighthouse' })).toMatchObject({ Code: 10502 });
    expect(await stateOf(user.userId)).toEqual({ balance: 10, daily: 3, ledgerSum: 10, refunds: [[1, -3]] });
  });

  it('gives back no more than the charge took', async () => {
    const user = await userWith(ALLOWANCE);
    const drawId = randomUUID();
    expect(await chargePoints(t.database.db, user.userId, 2, ALLOWANCE, { kind: 'draw', key: `draw:${drawId}` })).toBe(true);
    await refundPoints(t.database.db, user.userId, 50, { key: `refund:draw:${drawId}` });
    await refundPoints(t.database.db, user.userId, 7, { key: `refund:draw:${randomUUID()}` });
    expect(await stateOf(user.userId)).toEqual({ balance: 10, daily: ALLOWANCE, ledgerSum: 10, refunds: [[0, -2], [0, 0]] });
  });
});
