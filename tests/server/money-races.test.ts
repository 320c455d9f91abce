import { randomInt, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coupons } from '../../server/db/schema/coupons.ts';
import { pointBalances } from '../../server/db/schema/points.ts';
import { users } from '../../server/db/schema/users.ts';
import { issueToken } from '../../server/services/accounts/auth.ts';
import { catalogueChanged } from '../../server/services/catalogue/catalogue.ts';
import { settleInviteCredits } from '../../server/services/points/invites.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { startFakeStripe, subscriptionObject, type FakeStripe, type TestEvent } from '../fixtures/fake-stripe.ts';
import { createTestApp, fakeOpenAIEnv, onPostgres, type TestApp } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { createAdmin, createUser, type TestUser } from '../helpers/users.ts';

/**
 * Money under concurrency (docs/economy.md#tested-under-concurrency). Each run sends 1,000 requests
 * through the routes, at most CONCURRENCY at a time and in a shuffled order: message debits by a few
 * users with small balances, check-ins of one user from many tabs, 50 users redeeming one single-use
 * code, one Stripe invoice.paid delivered 20 times among its checkout.session.completed and a
 * customer.subscription.updated, invite sign-ups and the invitees' first messages, and operators'
 * grants with repeated requestIds. After each run the money must add up (see `problemsAfter`). A
 * seeded PRNG picks the mix and the order; a failure names its seed, and MONEY_RACES_SEED=<seed>
 * starts the runs there.
 */

/**
 * Runs per test: each draws a new seed, so every CI run tries new mixes and orders. The known
 * regressions (a dropped row lock) fail the first run; MONEY_RACES_RUNS=<n> runs longer.
 */
const RUNS = Number(process.env.MONEY_RACES_RUNS) || 8;
const OPS = 1000;
/** Requests in flight at once: more than the pool's 30 connections, so statements queue for locks and connections. */
const CONCURRENCY = 48;
const MESSAGE_COST = 3;
const MESSAGE_USERS = 6;
const REDEEMERS = 50;
const INVITEES = 5;
const WEBHOOK_DELIVERIES = 20;
const PLAN_POINTS = 5000; // standard-month (server/services/plans/plans.ts)
const DAY = 86_400;

/** mulberry32: a small, fast PRNG with a 32-bit seed, enough to pick a mix and shuffle it. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(rng: () => number, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** Runs the tasks with at most `limit` in flight, in the order given. */
async function pool(tasks: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

type Racer = { userId: string; token: string };

/** What one run set up, for the checks after it. */
type Run = {
  seed: number;
  code: string;
  checkinUser: Racer;
  redeemers: Racer[];
  inviter: Racer;
  inviteCode: string;
  invitees: string[];
  buyer: Racer;
  invoiceId: string;
  eventId: string;
  couponId: string;
  answers: { redeem: number[]; checkin: number[]; webhookApplied: boolean[]; unexpected: string[] };
};

// The state and helpers of the runs below (made in its beforeAll, PostgreSQL only).
let upstream: FakeOpenAI;
let stripe: FakeStripe;
let t: TestApp;
let admin: TestUser;
let spenders: TestUser[];
let address = 0;

/** Accounts made straight in the database with a token (no password hashing): the runs need many. */
async function racers(n: number): Promise<Racer[]> {
  const rows = Array.from({ length: n }, () => randomUUID()).map((id) => ({ id, email: `race-${id}@example.test`, passwordHash: '!', userName: `racer ${id.slice(0, 6)}` }));
  await t.database.db.insert(users).values(rows);
  await t.database.db.insert(pointBalances).values(rows.map((r) => ({ userId: r.id })));
  const policy = { ttlDays: 1, renewAfterSeconds: 86_400 };
  return Promise.all(rows.map(async (r) => ({ userId: r.id, token: await issueToken(t.database.db, r.id, policy) })));
}

/** Each request from an address of its own: the per-address limits of RedeemCode and UserSignin are not under test. */
const fromNewAddress = () => {
  const n = ++address;
  return { remoteAddress: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
};
/** The Code of an answer: the envelope's, or a stream's last event's. */
const codeOf = (body: string): number => {
  if (!body.startsWith('data: ')) return JSON.parse(body).Code;
  const events = body.split('\n\n').filter((b) => b.startsWith('data: {'));
  return JSON.parse(events.at(-1)!.slice('data: '.length)).Code;
};

async function prepare(seed: number): Promise<Run> {
  const [checkinUser, inviter, buyer, ...redeemers] = await racers(3 + REDEEMERS);
  const batch = await api(t.app, admin).post('/api/admin/RedeemCode/GenerateBatch', { name: `race ${seed}`, count: 1, points: 7, usesPerCode: 1 }, fromNewAddress());
  const codes = await api(t.app, admin).get(`/api/admin/RedeemCode/GetCodeList?batchId=${batch.json().Data.batchId}`, fromNewAddress());
  const invite = await api(t.app, inviter.token).get('/api/InviteCode/GetMyInviteCode', fromNewAddress());
  const couponId = randomUUID();
  await t.database.db.insert(coupons).values({ id: couponId, code: `RACE-${seed}-${couponId.slice(0, 4)}`.toUpperCase(), percentOff: 10, maxRedemptions: 1 });
  return {
    seed,
    code: codes.json().Data.list[0].code,
    checkinUser,
    redeemers,
    inviter,
    inviteCode: invite.json().Data.inviteCode,
    invitees: [],
    buyer,
    invoiceId: `in_race_${seed}_${randomUUID().slice(0, 6)}`,
    eventId: `evt_race_${seed}_${randomUUID().slice(0, 6)}`,
    couponId,
    answers: { redeem: [], checkin: [], webhookApplied: [], unexpected: [] },
  };
}

/** A signed delivery, as Stripe makes it. */
const deliver = async (event: TestEvent) => {
  const { payload, signature } = stripe.deliver(event);
  const res = await t.app.inject({ method: 'POST', url: '/api/Vip/StripeWebhook', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload });
  return res.json();
};

/** The webhook's events of one purchase: the invoice paid 20 times over, its checkout, and a change of the subscription. */
function webhookTasks(run: Run): (() => Promise<void>)[] {
  const subId = `sub_race_${run.seed}_${run.invoiceId.slice(-6)}`;
  const metadata = { userId: run.buyer.userId, vipPackageId: 'standard-month', couponId: run.couponId };
  const start = Math.floor(Date.now() / 1000) - 60;
  const paid: TestEvent = {
    id: run.eventId,
    type: 'invoice.paid',
    object: {
      id: run.invoiceId,
      object: 'invoice',
      customer: `cus_${subId}`,
      amount_paid: 899,
      currency: 'usd',
      discounts: ['di_race'],
      total_discount_amounts: [{ amount: 100, discount: 'di_race' }],
      parent: { type: 'subscription_details', subscription_details: { subscription: subId, metadata } },
      lines: { object: 'list', data: [{ id: 'il_race', object: 'line_item', period: { start, end: start + 30 * DAY } }] },
    },
  };
  const completed: TestEvent = {
    type: 'checkout.session.completed',
    object: { id: `cs_${subId}`, object: 'checkout.session', mode: 'subscription', payment_status: 'paid', subscription: subId, customer: `cus_${subId}`, client_reference_id: run.buyer.userId, metadata },
  };
  const updated: TestEvent = {
    type: 'customer.subscription.updated',
    object: subscriptionObject(subId, { metadata, customer: `cus_${subId}`, cancel_at_period_end: true, periodEnd: start + 30 * DAY }),
    previous_attributes: { cancel_at_period_end: false },
  };
  const record = (applied: boolean) => void run.answers.webhookApplied.push(applied);
  return [
    ...Array.from({ length: WEBHOOK_DELIVERIES }, () => async () => record((await deliver(paid)).Data?.applied)),
    async () => void (await deliver(completed)),
    async () => void (await deliver(updated)),
  ];
}

/** A sign-up with the run's invite code, then two messages at once: the inviter is credited once. */
const inviteTask = (run: Run, i: number) => async () => {
  const email = `invitee-${run.seed}-${i}-${randomUUID().slice(0, 6)}@example.test`;
  const signUp = await api(t.app).post('/api/Account/AddUser', { email, password: 'correct horse battery', inviteCode: ` ${run.inviteCode.toLowerCase()} ` }, fromNewAddress());
  const userId = signUp.json().Data?.userId;
  if (!userId) return void run.answers.unexpected.push(`sign-up: ${signUp.body.slice(0, 200)}`);
  run.invitees.push(userId);
  const token = await issueToken(t.database.db, userId, { ttlDays: 1, renewAfterSeconds: 86_400 });
  await Promise.all([message(run, token, 'free'), message(run, token, 'free')]);
};

/** A message: answered (a stream ending in 10000) or refused for points (10470), nothing else. */
async function message(run: Run, token: string, aiModelId = 'pricey'): Promise<void> {
  const res = await api(t.app, token).post('/api/Chat/AddMessage', { aiModelId, inputMessage: 'hi', chatMediaIds: [] }, fromNewAddress());
  const code = codeOf(res.body);
  if (res.statusCode !== 200 || (code !== 10000 && code !== 10470)) run.answers.unexpected.push(`message: HTTP ${res.statusCode} ${res.body.slice(0, 200)}`);
}

/** The 1,000 operations of a run, shuffled: the fixed parts, operators' grants, and messages for the rest. */
function operations(run: Run, rng: () => number): (() => Promise<void>)[] {
  const tasks: (() => Promise<void>)[] = [];
  const checkins = 30 + Math.floor(rng() * 50);
  for (let i = 0; i < checkins; i++) {
    tasks.push(async () => {
      const res = await api(t.app, run.checkinUser.token).post('/api/User/UserSignin', { timeZone: 'UTC' }, fromNewAddress());
      run.answers.checkin.push(res.json().Code);
    });
  }
  for (const user of run.redeemers) {
    tasks.push(async () => {
      const res = await api(t.app, user.token).post('/api/User/RedeemCode', { code: run.code.toLowerCase() }, fromNewAddress());
      run.answers.redeem.push(res.json().Code);
    });
  }
  tasks.push(...webhookTasks(run));
  // Each invite is three operations: the sign-up and two messages.
  tasks.push(...Array.from({ length: INVITEES }, (_, i) => inviteTask(run, i)));
  const counted = tasks.length + INVITEES * 2;
  return [...tasks, ...grantAndMessageTasks(run, rng, OPS - counted)];
}

/**
 * `n` operations: about a fifth operators' grants (+6, or -2) to the spenders, each requestId sent
 * several times; the rest messages by the spenders, most of which find their points spent.
 */
function grantAndMessageTasks(run: Run, rng: () => number, n: number): (() => Promise<void>)[] {
  const requests = spenders.flatMap((s) => [6, 6, 6, -2].map((amount) => ({ userId: s.userId, amount, requestId: randomUUID() })));
  const grants = Math.floor(n * (0.15 + rng() * 0.1));
  const tasks: (() => Promise<void>)[] = [];
  for (let i = 0; i < n; i++) {
    if (i < grants) {
      const grant = requests[Math.floor(rng() * requests.length)]!;
      tasks.push(async () => {
        const res = await api(t.app, admin).post('/api/admin/Vip/AddIntegral', { ...grant, note: `race ${run.seed}` }, fromNewAddress());
        const code = res.json().Code;
        // 10400: a deduction the balance did not cover at that moment.
        if (code !== 10000 && !(code === 10400 && grant.amount < 0)) run.answers.unexpected.push(`grant: ${res.body.slice(0, 200)}`);
      });
    } else {
      const spender = spenders[Math.floor(rng() * spenders.length)]!;
      tasks.push(() => message(run, spender.token));
    }
  }
  return tasks;
}

/** What does not add up after a run, in words; nothing when all is well. */
async function problemsAfter(run: Run): Promise<string[]> {
  const q = async <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) => (await t.database.db.execute<T>(query)).rows;
  const problems: string[] = [...run.answers.unexpected];
  const wrong = (what: string, rows: unknown[]) => rows.length && problems.push(`${what}: ${JSON.stringify(rows).slice(0, 400)}`);
  const count = async (query: ReturnType<typeof sql>) => Number((await q<{ n: number }>(query))[0]!.n);

  // Every account: the balance is the sum of the ledger; no balance or balance_after below zero; each key once.
  wrong(
    'balance is not the sum of the ledger',
    await q(sql`select b.user_id, b.balance, coalesce(sum(l.delta), 0)::int as total from point_balances b left join point_ledger l on l.user_id = b.user_id
      group by b.user_id, b.balance having b.balance <> coalesce(sum(l.delta), 0)`),
  );
  wrong('negative balance', await q(sql`select user_id, balance from point_balances where balance < 0`));
  wrong('negative balance_after', await q(sql`select id, balance_after from point_ledger where balance_after < 0`));
  wrong('idempotency key applied twice', await q(sql`select idempotency_key, count(*)::int as n from point_ledger group by idempotency_key having count(*) > 1`));

  // The single-use code: one use, one redeem row, one credit, one success among 50.
  const code = run.code.replaceAll('-', '');
  const redeemed = [
    await count(sql`select uses as n from redeem_codes where code = ${code}`),
    await count(sql`select count(*)::int as n from redeem_uses where code = ${code}`),
    await count(sql`select count(*)::int as n from point_ledger where idempotency_key like ${`redeem:${code}:%`}`),
    run.answers.redeem.filter((c) => c === 10000).length,
  ];
  if (redeemed.some((n) => n !== 1)) problems.push(`single-use code applied [uses, rows, credits, successes] = ${redeemed}`);
  if (run.answers.redeem.some((c) => c !== 10000 && c !== 10400)) problems.push(`redeem answers ${[...new Set(run.answers.redeem)]}`);

  // The webhook: one order for the invoice, its points once, one applied delivery of 20, the coupon's use counted once.
  const paid = [
    await count(sql`select count(*)::int as n from vip_orders where stripe_invoice_id = ${run.invoiceId}`),
    await count(sql`select count(*)::int as n from point_ledger where idempotency_key = ${`plan:${run.invoiceId}`}`),
    run.answers.webhookApplied.filter(Boolean).length,
    await count(sql`select times_redeemed as n from coupons where id = ${run.couponId}`),
    await count(sql`select count(*)::int as n from coupon_redemptions where coupon_id = ${run.couponId}`),
  ];
  if (paid.some((n) => n !== 1)) problems.push(`webhook [orders, plan credits, applied deliveries, coupon uses, redemptions] = ${paid}`);
  const buyerBalance = await count(sql`select balance as n from point_balances where user_id = ${run.buyer.userId}`);
  if (buyerBalance !== PLAN_POINTS) problems.push(`the buyer holds ${buyerBalance} points, not ${PLAN_POINTS}`);

  // Invites: each invitee credited its inviter once (the cap of 20 a day is not reached by 5).
  wrong('an invitee credited twice', await q(sql`select idempotency_key, count(*)::int as n from point_ledger where reason = 'invite' group by 1 having count(*) > 1`));
  const credits = await count(sql`select count(*)::int as n from point_ledger where reason = 'invite' and user_id = ${run.inviter.userId}`);
  if (run.invitees.length !== INVITEES || credits !== INVITEES) problems.push(`${run.invitees.length} invitees signed up, ${credits} credits`);

  // Check-ins: one row for the day, one credit, one success among the tabs; the others 10409.
  wrong('two check-ins on one day', await q(sql`select user_id, day, count(*)::int as n from user_checkins group by 1, 2 having count(*) > 1`));
  const checkins = [
    await count(sql`select count(*)::int as n from user_checkins where user_id = ${run.checkinUser.userId}`),
    await count(sql`select count(*)::int as n from point_ledger where user_id = ${run.checkinUser.userId} and reason = 'checkin'`),
    run.answers.checkin.filter((c) => c === 10000).length,
  ];
  if (checkins.some((n) => n !== 1)) problems.push(`check-in [rows, credits, successes] = ${checkins}`);
  // 10429: one person's check-in limit (per account, whatever the address) refused the rest of the burst.
  if (run.answers.checkin.some((c) => c !== 10000 && c !== 10409 && c !== 10429)) problems.push(`check-in answers ${[...new Set(run.answers.checkin)]}`);
  return problems;
}

describe.skipIf(!onPostgres)('money under 1,000 concurrent operations (PostgreSQL only: PGlite has one connection, so nothing there runs at once)', () => {
  beforeAll(async () => {
    [upstream, stripe] = await Promise.all([startFakeOpenAI(), startFakeStripe()]);
    t = await createTestApp({
      ...fakeOpenAIEnv(upstream, 'pricey,free'),
      FREE_DAILY_POINTS: '0',
      AUTH_RATE_LIMIT: '1000',
      STRIPE_SECRET_KEY: 'sk_test_races',
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.url,
    });
    await t.database.db.execute(sql`update ai_models set points_cost = case id when 'pricey' then ${MESSAGE_COST}::int else 0 end where id in ('pricey', 'free')`);
    await catalogueChanged(t.app.ctx);
    admin = await createAdmin(t.app);
    // Invitees here send free messages: they credit their inviter at once (the rule of invite_min_spend is tested in invites.test.ts).
    const saved = await api(t.app, admin).post('/api/admin/System/SaveSetting', { settingKey: 'invite_min_spend', settingValue: '0' });
    expect(saved.json().Code).toBe(10000);
    spenders = await Promise.all(Array.from({ length: MESSAGE_USERS }, () => createUser(t.app)));
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([upstream?.close(), stripe?.close()]);
  });

  it(`keeps every balance the sum of its ledger, and every event applied once, over ${RUNS} seeded runs of ${OPS} operations`, { timeout: 300_000 }, async () => {
    const base = Number(process.env.MONEY_RACES_SEED) || randomInt(1, 2 ** 31);
    const started = Date.now();
    for (let i = 0; i < RUNS; i++) {
      const seed = base + i;
      const rng = prng(seed);
      const run = await prepare(seed);
      await pool(shuffle(rng, operations(run, rng)), CONCURRENCY);
      await settleInviteCredits(t.app.ctx);
      const problems = await problemsAfter(run);
      if (problems.length) console.error(`money races: seed ${seed} failed (rerun with MONEY_RACES_SEED=${seed})`);
      expect(problems, `seed ${seed} (rerun with MONEY_RACES_SEED=${seed})`).toEqual([]);
      upstream.reset();
      stripe.reset();
    }
    const kinds = await t.database.db.execute<{ reason: string; n: number }>(sql`select reason, count(*)::int as n from point_ledger group by reason order by reason`);
    const applied = kinds.rows.map((r: { reason: string; n: number }) => `${r.reason} ${r.n}`).join(', ');
    console.info(`money races: ${RUNS} runs of ${OPS} operations from seed ${base} in ${((Date.now() - started) / 1000).toFixed(1)} s; ledger entries: ${applied}`);
  });
});
