import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chatMessages } from '../../server/db/schema/chat.ts';
import { pointBalances, pointLedger } from '../../server/db/schema/points.ts';
import { adminSaveDeployment, adminSaveModel } from '../../server/services/catalogue/catalogue-admin.ts';
import { applyLedgerChange, settleTokenCharge } from '../../server/services/points/ledger.ts';
import { tokenCost } from '../../server/services/chat/token-metering.ts';
import { pointsSpentSql } from '../../server/services/system/usage-rollup.ts';
import { SaveModelSchema, type SaveModel } from '../../shared/contracts/model.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { createTestApp, onPostgres, type TestApp } from '../helpers/app.ts';
import { testSaveModel } from '../helpers/models.ts';
import { listening, parseChatStream, textOf } from '../helpers/chat.ts';
import { api, http } from '../helpers/api.ts';
import { createAdmin, createUser, type TestUser } from '../helpers/users.ts';

/**
 * Points priced per token (docs/economy.md#token-pricing): a token-priced model holds its pointsCost
 * when the message is sent, and when the answer ends its tokens are priced and the difference taken
 * or given back, once, in one statement with the message's row. Runs on PGlite, and on PostgreSQL
 * with TEST_DATABASE_URL, where the parallel part really runs at once.
 */

const ALLOWANCE = 5;
const HOLD = 10;
/** 2 points per 1,000 input tokens, 8 per 1,000 output tokens. */
const PRICE = { inputPer1k: 2, outputPer1k: 8 };

// One app for the file, with its models on a fake upstream; each test has a user with 100 points.
let upstream: FakeOpenAI;
let t: TestApp;
let baseUrl: string;
let user: TestUser;

/** A token-priced model (hold HOLD, PRICE) unless `extra` says otherwise. */
const model = (aiModelId: string, extra: Partial<SaveModel> = {}): SaveModel => testSaveModel(aiModelId, { pointsCost: HOLD, tokenPrice: PRICE, ...extra });
async function modelOn(saved: SaveModel, upstreamModelId = saved.aiModelId!) {
  await adminSaveModel(t.app.ctx, saved);
  await adminSaveDeployment(t.app.ctx, {
    aiModelId: saved.aiModelId!,
    provider: 'openai-compatible',
    baseUrl: upstream.baseUrl,
    apiKey: 'sk-test-key-1234',
    upstreamModelId,
    priority: 0,
    enabled: true,
  });
}

const send = async (who: TestUser, aiModelId: string) => {
  const res = await http(baseUrl, who).post('/api/Chat/AddMessage', { aiModelId, inputMessage: 'Hello there' });
  const events = parseChatStream(await res.text());
  const messageId = events[0]!.Data.ChatMessageId;
  const [row] = await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, messageId));
  return { events, row: row!, messageId };
};
const wallet = async (userId: string) => {
  const [row] = await t.database.db
    .select({ balance: pointBalances.balance, daily: sql<number>`case when ${pointBalances.dailyDay} = current_date then ${pointBalances.dailyLeft} else ${ALLOWANCE} end`.mapWith(Number), used: pointBalances.usedTotal })
    .from(pointBalances)
    .where(eq(pointBalances.userId, userId));
  return row!;
};
const entriesOf = (messageId: string) => t.database.db.select().from(pointLedger).where(eq(pointLedger.refId, messageId));
/** A fresh account with `balance` points and today's allowance untouched. */
async function userWith(balance: number): Promise<TestUser> {
  const u = await createUser(t.app);
  if (balance > 0) await applyLedgerChange(t.database.db, { userId: u.userId, delta: balance, kind: 'admin', key: `test-grant:${randomUUID()}` });
  return u;
}

beforeAll(async () => {
  upstream = await startFakeOpenAI();
  t = await createTestApp({ FREE_DAILY_POINTS: String(ALLOWANCE), AUTH_RATE_LIMIT: '1000' });
  baseUrl = await listening(t.app);
  await modelOn(model('priced'));
  await modelOn(model('flat', { tokenPrice: null, pointsCost: 3 }));
  await modelOn(model('priced-cheap', { pointsCost: 1, tokenPrice: { inputPer1k: 0.5, outputPer1k: 1.25 } }));
});
beforeEach(async () => {
  user = await userWith(100);
});
afterAll(async () => {
  t?.app.server.closeAllConnections();
  await t?.close();
  await upstream?.close();
});

describe('token pricing: what tokens cost', () => {
  it('prices tokens per 1,000, rounded up to whole points, exactly for thousandths', () => {
    expect(tokenCost(PRICE, { inputTokens: 1000, outputTokens: 2000 })).toBe(18);
    expect(tokenCost(PRICE, { inputTokens: 1, outputTokens: 0 })).toBe(1);
    expect(tokenCost(PRICE, { inputTokens: 0, outputTokens: 0 })).toBe(0);
    // 0.003 * 1000 is not 3 in floating point; the price is kept as thousandths, so 1M tokens cost exactly 3.
    expect(tokenCost({ inputPer1k: 0.003, outputPer1k: 0 }, { inputTokens: 1_000_000, outputTokens: 0 })).toBe(3);
    expect(tokenCost({ inputPer1k: 0.003, outputPer1k: 0 }, { inputTokens: 1_000_001, outputTokens: 0 })).toBe(4);
    // Absurd counts stop at a ceiling the integer columns hold.
    expect(tokenCost({ inputPer1k: 1_000_000, outputPer1k: 1_000_000 }, { inputTokens: 2 ** 40, outputTokens: 2 ** 40 })).toBe(1_000_000_000);
  });

  it('validates prices: three decimals at most, within bounds, and a hold to go with them', () => {
    const base = { name: 'x', pointsCost: 1 };
    expect(SaveModelSchema.safeParse({ ...base, tokenPrice: { inputPer1k: 0.125, outputPer1k: 3 } }).success).toBe(true);
    expect(SaveModelSchema.safeParse({ ...base, tokenPrice: { inputPer1k: 0.0005, outputPer1k: 1 } }).success).toBe(false);
    expect(SaveModelSchema.safeParse({ ...base, tokenPrice: { inputPer1k: -1, outputPer1k: 1 } }).success).toBe(false);
    expect(SaveModelSchema.safeParse({ ...base, tokenPrice: { inputPer1k: 2_000_000, outputPer1k: 1 } }).success).toBe(false);
    expect(SaveModelSchema.safeParse({ ...base, tokenPrice: { inputPer1k: 1, outputPer1k: 'x' } }).success).toBe(false);
    const noHold = SaveModelSchema.safeParse({ ...base, pointsCost: 0, tokenPrice: { inputPer1k: 1, outputPer1k: 1 } });
    expect(noHold.success).toBe(false);
    expect(noHold.error?.issues[0]).toMatchObject({ path: ['pointsCost'], message: 'tokenPriceNeedsHold' });
    expect(SaveModelSchema.parse(base).tokenPrice).toBeNull();
  });
});

describe('token pricing: settling an answer', () => {
  it('takes the rest when the tokens cost more than the hold, the allowance first', async () => {
    upstream.script('priced', { chunks: ['A long', ' answer'], usage: { prompt_tokens: 1000, completion_tokens: 2000 } });
    const { events, row, messageId } = await send(user, 'priced');
    expect(textOf(events)).toBe('A long answer');
    // Hold 10: the allowance's 5, then 5 of the balance; the tokens cost 2 + 16 = 18: 8 more, all from the balance.
    expect(row).toMatchObject({ pointsCost: 18, pointsSettled: true, inputTokens: 1000, outputTokens: 2000 });
    expect(await wallet(user.userId)).toMatchObject({ balance: 100 - 5 - 8, daily: 0, used: 18 });
    const settle = (await entriesOf(messageId)).find((e) => e.reason === 'settle')!;
    expect(settle).toMatchObject({ delta: -8, allowance: 0, balanceAfter: 87, idempotencyKey: `settle:message:${messageId}`, note: '1000 + 2000 tokens' });
  });

  it('gives the difference back when the tokens cost less: to the balance the hold took, then to the allowance', async () => {
    upstream.script('priced', { chunks: ['Short'], usage: { prompt_tokens: 100, completion_tokens: 100 } });
    const { row, messageId } = await send(user, 'priced');
    // 0.2 + 0.8 = 1 point. The hold took 5 from the allowance and 5 from the balance: 5 back to the
    // balance, 4 to the allowance, so the one point spent is a free one.
    expect(row).toMatchObject({ pointsCost: 1, pointsSettled: true });
    expect(await wallet(user.userId)).toMatchObject({ balance: 100, daily: 4, used: 1 });
    const settle = (await entriesOf(messageId)).find((e) => e.reason === 'settle')!;
    expect(settle).toMatchObject({ delta: 5, allowance: -4, balanceAfter: 100 });
  });

  it('never takes more than the user has: the answer is given, what is missing is noted, not owed', async () => {
    const poor = await userWith(7);
    upstream.script('priced', { chunks: ['Expensive'], usage: { prompt_tokens: 5000, completion_tokens: 5000 } });
    const { row, messageId } = await send(poor, 'priced');
    // 10 + 40 = 50 points; the hold took the allowance (5) and 5 of the 7; 2 are left to take.
    expect(row).toMatchObject({ pointsCost: 12, pointsSettled: true });
    expect(await wallet(poor.userId)).toMatchObject({ balance: 0, daily: 0 });
    const settle = (await entriesOf(messageId)).find((e) => e.reason === 'settle')!;
    expect(settle).toMatchObject({ delta: -2, note: '5000 + 5000 tokens (38 not covered)' });
  });

  it('marks estimated counts in the note', async () => {
    upstream.script('priced', { chunks: ['Estimated'], usage: null });
    const { row, messageId } = await send(user, 'priced');
    expect(row.tokensEstimated).toBe(true);
    const settle = (await entriesOf(messageId)).find((e) => e.reason === 'settle')!;
    expect(settle.note).toBe(`${row.inputTokens} + ${row.outputTokens} tokens ~`);
  });

  it('gives the whole hold back when the answer fails before any text, and settles nothing', async () => {
    upstream.script('priced', { status: 503, errorMessage: 'overloaded' });
    const { row, messageId } = await send(user, 'priced');
    expect(row.finishReason).toBe('error');
    expect(row.pointsSettled).toBe(false);
    const kinds = (await entriesOf(messageId)).map((e) => e.reason).sort();
    expect(kinds).toEqual(['message', 'refund']);
    // A refund goes to the balance (docs/economy.md#the-ledger): 100 - 5 + 10.
    expect((await wallet(user.userId)).balance + (await wallet(user.userId)).daily).toBe(105);
  });

  it('charges an answer the model broke off for what the user got: a flat price is given back whole, tokens are settled', async () => {
    upstream.script('flat', { chunks: ['Half', ' an', ' answer'], failAfter: { chunks: 2, mode: 'error' } });
    const flat = await send(user, 'flat');
    expect(textOf(flat.events)).toBe('Half an');
    expect(flat.events.at(-1)!.Msg).toMatch(/^The answer was cut off/);
    expect((await entriesOf(flat.messageId)).map((e) => e.reason).sort()).toEqual(['message', 'refund']);
    // The 3 points the hold took from today's allowance go back to it (docs/economy.md#cut-off-answers).
    expect(await wallet(user.userId)).toMatchObject({ balance: 100, daily: 5 });

    const other = await userWith(100);
    upstream.script('priced', { chunks: ['Half', ' an', ' answer'], failAfter: { chunks: 2, mode: 'error' } });
    const priced = await send(other, 'priced');
    expect(textOf(priced.events)).toBe('Half an');
    expect(priced.row).toMatchObject({ finishReason: 'error', pointsSettled: true });
    // Priced on the (estimated) tokens it gave, well under the hold of 10.
    expect(priced.row.pointsCost).toBeGreaterThan(0);
    expect(priced.row.pointsCost).toBeLessThan(HOLD);
    expect((await entriesOf(priced.messageId)).map((e) => e.reason).sort()).toEqual(['message', 'settle']);
  });

  it('leaves a flat-priced model as it was: its pointsCost per message, no settlement', async () => {
    upstream.script('flat', { chunks: ['Flat'], usage: { prompt_tokens: 9000, completion_tokens: 9000 } });
    const { row, messageId } = await send(user, 'flat');
    expect(row).toMatchObject({ pointsCost: 3, pointsSettled: false });
    expect((await entriesOf(messageId)).map((e) => e.reason)).toEqual(['message']);
    expect(await wallet(user.userId)).toMatchObject({ balance: 100, daily: 2 });
  });

  it('settles once: a second settlement, or one naming another user, changes nothing', async () => {
    upstream.script('priced', { chunks: ['Once'], usage: { prompt_tokens: 1000, completion_tokens: 500 } }); // 2 + 4 = 6: 4 back
    const { messageId } = await send(user, 'priced');
    const before = await wallet(user.userId);
    const again = { messageId, cost: 500, dailyAllowance: ALLOWANCE, note: '' };
    expect(await settleTokenCharge(t.database.db, { ...again, userId: user.userId })).toBeNull();
    const other = await userWith(50);
    expect(await settleTokenCharge(t.database.db, { ...again, userId: other.userId })).toBeNull();
    expect(await wallet(user.userId)).toEqual(before);
    expect(await wallet(other.userId)).toMatchObject({ balance: 50 });
    expect((await entriesOf(messageId)).filter((e) => e.reason === 'settle')).toHaveLength(1);
  });
});

describe('token pricing: shown to users, set by operators', () => {
  it('shows users the price per 1,000 tokens beside the hold', async () => {
    const res = await http(baseUrl, user).get('/api/AiModel/GetModelListAll');
    const list = (await res.json()).Data as { aiModelId: string; pointsCost: number; tokenPrice: unknown }[];
    expect(list.find((m) => m.aiModelId === 'priced-cheap')).toMatchObject({ pointsCost: 1, tokenPrice: { inputPer1k: 0.5, outputPer1k: 1.25 } });
    expect(list.find((m) => m.aiModelId === 'flat')).toMatchObject({ pointsCost: 3, tokenPrice: null });
  });

  it('lets an operator set and clear the prices through AiModel/Save, and refuses a price without a hold with a clear Code', async () => {
    const admin = await createAdmin(t.app);
    const save = (body: object) => api(t.app, admin).post('/api/admin/AiModel/Save', body);
    const ok = (await save({ aiModelId: 'op-priced', name: 'Op priced', pointsCost: 2, tokenPrice: { inputPer1k: 1.5, outputPer1k: 6 } })).json();
    expect(ok).toMatchObject({ Code: 10000, Data: { aiModelId: 'op-priced', tokenPrice: { inputPer1k: 1.5, outputPer1k: 6 } } });
    const cleared = (await save({ aiModelId: 'op-priced', name: 'Op priced', pointsCost: 2, tokenPrice: null })).json();
    expect(cleared.Data.tokenPrice).toBeNull();
    const refused = await save({ aiModelId: 'op-priced', name: 'Op priced', pointsCost: 0, tokenPrice: { inputPer1k: 1, outputPer1k: 1 } });
    expect(refused.statusCode).toBe(200);
    expect(refused.json().Code).toBe(10400);
    expect(refused.json().Msg).toContain('A model priced by tokens needs a hold of at least 1 point');
    const tooFine = (await save({ aiModelId: 'op-priced', name: 'Op priced', pointsCost: 2, tokenPrice: { inputPer1k: 0.0001, outputPer1k: 1 } })).json();
    expect(tooFine).toMatchObject({ Code: 10400 });
    expect(tooFine.Msg).toContain('at most three decimals');
  });
});

describe('token pricing under parallel answers', () => {
  it('adds up under parallel answers and repeated settlements: balance, ledger, messages and the dashboard agree', async () => {
    const racer = await userWith(2000);
    // Three prices of answer, above and below the hold, on models of their own upstream scripts.
    await modelOn(model('priced-a'));
    await modelOn(model('priced-b'));
    await modelOn(model('priced-c', { pointsCost: 4, tokenPrice: { inputPer1k: 0.25, outputPer1k: 0.75 } }));
    upstream.script('priced-a', { chunks: ['a'], usage: { prompt_tokens: 3000, completion_tokens: 1500 } }); // 6 + 12 = 18
    upstream.script('priced-b', { chunks: ['b'], usage: { prompt_tokens: 200, completion_tokens: 100 } }); // 0.4 + 0.8 -> 2
    upstream.script('priced-c', { chunks: ['c'], usage: { prompt_tokens: 1000, completion_tokens: 1000 } }); // 0.25 + 0.75 = 1
    const models = ['priced-a', 'priced-b', 'priced-c'];
    const sent = await Promise.all(Array.from({ length: 30 }, (_, i) => send(racer, models[i % 3]!)));
    // Each settlement again, three times at once: the first already applied, none may apply again.
    await Promise.all(
      sent.flatMap(({ messageId }) =>
        Array.from({ length: 3 }, () => settleTokenCharge(t.database.db, { userId: racer.userId, messageId, cost: 999, dailyAllowance: ALLOWANCE, note: '' })),
      ),
    );
    const rows = await t.database.db.select().from(chatMessages).where(eq(chatMessages.userId, racer.userId));
    expect(rows).toHaveLength(30);
    expect(rows.every((r) => r.pointsSettled && r.finishReason === 'stop')).toBe(true);
    const expected = { 'priced-a': 18, 'priced-b': 2, 'priced-c': 1 } as Record<string, number>;
    for (const r of rows) expect(r.pointsCost).toBe(expected[r.requestedModelId]);
    const spentByMessages = rows.reduce((sum, r) => sum + r.pointsCost, 0);
    expect(spentByMessages).toBe(10 * (18 + 2 + 1));

    const w = await wallet(racer.userId);
    // What left the balance and the day's allowance is exactly what the answers cost.
    expect(2000 + ALLOWANCE - (w.balance + w.daily)).toBe(spentByMessages);
    expect(w.used).toBe(spentByMessages);
    const [ledger] = (
      await t.database.db.execute<{ delta: number; spent: number; settles: number; last: number }>(sql`
        select sum(delta)::int as delta, sum(${pointsSpentSql})::int as spent, count(*) filter (where reason = 'settle')::int as settles,
          (array_agg(balance_after order by created_at desc, balance_after asc))[1]::int as last
        from ${pointLedger} where user_id = ${racer.userId} and reason <> 'admin'`)
    ).rows;
    // The ledger's balance changes add up to the balance; the dashboard's definition of spent to the answers' cost.
    expect(ledger!.delta).toBe(w.balance - 2000);
    expect(ledger!.spent).toBe(spentByMessages);
    // Every answer's cost differed from its hold: one settlement each, never two.
    expect(ledger!.settles).toBe(30);
  });

  it.runIf(onPostgres)('settles on PostgreSQL under a pool of parallel connections without a lost update', async () => {
    const racer = await userWith(10_000);
    await modelOn(model('priced-d', { pointsCost: 3, tokenPrice: { inputPer1k: 1, outputPer1k: 1 } }));
    upstream.script('priced-d', { chunks: ['d'], usage: { prompt_tokens: 1500, completion_tokens: 1500 } }); // 3 -> 3: hold equals cost
    upstream.script('priced-a', { chunks: ['a'], usage: { prompt_tokens: 3000, completion_tokens: 1500 } }); // 18
    const sent = await Promise.all(Array.from({ length: 60 }, (_, i) => send(racer, i % 2 ? 'priced-d' : 'priced-a')));
    const w = await wallet(racer.userId);
    expect(10_000 + ALLOWANCE - (w.balance + w.daily)).toBe(30 * 3 + 30 * 18);
    const settles = (await Promise.all(sent.map((s) => entriesOf(s.messageId)))).flat().filter((e) => e.reason === 'settle');
    // A cost equal to its hold needs no entry; the others one each.
    expect(settles).toHaveLength(30);
  });
});
