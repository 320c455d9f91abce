import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chatMessages } from '../../server/db/schema/chat.ts';
import { pointLedger } from '../../server/db/schema/points.ts';
import { authTokens, vipOrders } from '../../server/db/schema/users.ts';
import { creditPoints, getIntegral } from '../../server/services/points/ledger.ts';
import { hashSecret } from '../../server/services/accounts/auth.ts';
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../fixtures/fake-openai.ts';
import { http } from '../helpers/api.ts';
import { countQueries, createTestApp, fakeOpenAIEnv, type TestApp } from '../helpers/app.ts';
import { listening, readStream, textOf, type StreamEvent } from '../helpers/chat.ts';
import { sleep } from '../helpers/http-server.ts';
import { createUser, grantVip, type TestUser } from '../helpers/users.ts';

/**
 * The first token (docs/architecture.md#a-message-from-the-side-panel-to-the-model-and-back): the
 * upstream is asked while the statement that charges and stores the message runs; nothing reaches
 * the client before that statement has committed, and a refused statement cuts the upstream off.
 * The statement is held back by holding the database from the test: a transaction on PGlite's one
 * connection, table locks on PostgreSQL.
 */

/** Every table the message path could read or write: while held, any query of it waits. */
const TABLES = 'users, auth_tokens, vip_orders, point_balances, point_ledger, chat_sessions, chat_messages, ai_models, ai_deployments, ai_model_types, ai_model_type_links, system_settings';

async function holdDatabase(t: TestApp): Promise<{ release(): Promise<void> }> {
  if (t.databaseUrl) {
    const client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
    await client.query('begin');
    await client.query(`lock table ${TABLES} in access exclusive mode`);
    return {
      async release() {
        await client.query('commit');
        await client.end();
      },
    };
  }
  // PGlite has one connection: while a transaction runs, every other query waits for it.
  let release!: () => void;
  let held!: () => void;
  const holding = new Promise<void>((r) => (held = r));
  const done = t.database.db.transaction(async (tx) => {
    await tx.execute(sql`select 1`);
    held();
    await new Promise<void>((r) => (release = r));
  });
  await holding;
  return {
    async release() {
      release();
      await done;
    },
  };
}

let fake: FakeOpenAI;
let t: TestApp;
let baseUrl: string;
let user: TestUser;

const post = (token: string, body: Record<string, unknown>) =>
  http(baseUrl, token).post('/api/Chat/AddMessage', body);
const pointsOf = async (userId: string) => (await getIntegral(t.database.db, userId, t.config.FREE_DAILY_POINTS))[0].integralValue;
const rowsOf = (userId: string) => t.database.db.select().from(chatMessages).where(eq(chatMessages.userId, userId));
const ledgerOf = (userId: string) => t.database.db.select().from(pointLedger).where(eq(pointLedger.userId, userId));
/** The next request the fake upstream receives, once it has arrived. */
const nextRequest = async (before: number): Promise<RecordedRequest> =>
  vi.waitFor(
    () => {
      expect(fake.requests.length).toBeGreaterThan(before);
      return fake.requests[before];
    },
    { timeout: 5000, interval: 5 },
  );
/** A user with `points` to spend (the app gives no free daily points), the login cache warm. */
const userWith = async (points: number) => {
  const u = await createUser(t.app);
  if (points > 0) await creditPoints(t.database.db, { userId: u.userId, delta: points, kind: 'admin', key: `test:${u.userId}` });
  return u;
};
/** One finished message: fills the login cache and the catalogue, as any running server has them. */
const warm = async (u: TestUser, model = 'fast-model') => {
  const res = await post(u.token, { aiModelId: model, inputMessage: 'warm up' });
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  expect((await readStream(res, () => {})).done).toBe(true);
};

/** Sends a message with the database held until the upstream has the request, then lets the statement run. */
const sentWhileHeld = async (token: string, body: Record<string, unknown>) => {
  const before = fake.requests.length;
  const hold = await holdDatabase(t);
  let released = false;
  try {
    const pending = post(token, body);
    const request = await nextRequest(before);
    released = true;
    await hold.release();
    return { res: await pending, request };
  } finally {
    if (!released) await hold.release();
  }
};

beforeAll(async () => {
  fake = await startFakeOpenAI();
  // slow-model answers in about two seconds: a refusal must cut it off long before.
  fake.script('slow-model', { chunks: Array.from({ length: 100 }, (_, i) => `s${i} `), delayMs: 20 });
  fake.script('fast-model', { chunks: ['Hello', ' there'] });
  fake.script('paced-model', { chunks: ['one ', 'two ', 'three ', 'four'], delayMs: 20 });
  fake.script('plan-model', { chunks: Array.from({ length: 30 }, (_, i) => `p${i} `), delayMs: 20 });
  t = await createTestApp({ ...fakeOpenAIEnv(fake, 'fast-model,paced-model,slow-model,plan-model:2'), FREE_DAILY_POINTS: '0' });
  baseUrl = await listening(t.app);
  user = await userWith(100);
  await warm(user);
});
afterAll(async () => {
  t?.app.server.closeAllConnections();
  await t?.close();
  await fake?.close();
});

describe('AddMessage: the upstream asked while the message is stored', () => {
  it('asks the upstream before the statement commits, and sends nothing until the message is stored', async () => {
    const before = fake.requests.length;
    const points = await pointsOf(user.userId);
    const hold = await holdDatabase(t);
    let answered = false;
    let released = false;
    const pending = post(user.token, { aiModelId: 'fast-model', inputMessage: 'in parallel' }).then((res) => {
      answered = true;
      return res;
    });
    try {
      // With every table of the message path held, the upstream still gets the request and answers
      // it whole: nothing on the way to it waited for the database.
      const request = await nextRequest(before);
      expect(request.body.messages.at(-1).content).toBe('in parallel');
      await vi.waitFor(() => expect(request.outcome).toBe('completed'), { timeout: 5000, interval: 5 });
      // ... and the client has not even had the headers: the message is not stored yet.
      await sleep(30);
      expect(answered).toBe(false);
    } finally {
      released = true;
      await hold.release();
    }
    expect(released).toBe(true);

    const res = await pending;
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    let storedAtFirstText: unknown[] | null = null;
    const { events, done } = await readStream(res, async (e) => {
      // The first text the client sees belongs to a stored, charged message.
      if (e.Data.OutputMessage && !storedAtFirstText) storedAtFirstText = await rowsOf(user.userId).then((rows) => rows.filter((r) => r.id === e.Data.ChatMessageId));
    });
    expect(done).toBe(true);
    expect(textOf(events)).toBe('Hello there');
    expect(storedAtFirstText).toHaveLength(1);
    expect((storedAtFirstText![0] as { inputMessage: string }).inputMessage).toBe('in parallel');
    expect(await pointsOf(user.userId)).toBe(points - 1);
    const timing = res.headers.get('server-timing')!;
    // The first answer text waited for the statement: the wait is in the Server-Timing header.
    expect(Number(/wait;dur=([\d.]+)/.exec(timing)![1])).toBeGreaterThan(0);
  });

  it('asks the database one statement before the first token, with the login cache warm', async () => {
    const counted = countQueries(t);
    let atFirstText: string[] = [];
    try {
      const res = await post(user.token, { aiModelId: 'paced-model', inputMessage: 'count' });
      const { done } = await readStream(res, (e: StreamEvent) => {
        if (e.Data.OutputMessage && !atFirstText.length) atFirstText = [...counted.seen];
      });
      expect(done).toBe(true);
    } finally {
      counted.restore();
    }
    // The token check, the model and the settings come from memory; the one statement charges the
    // points and stores the session and the message.
    expect(atFirstText).toHaveLength(1);
    expect(atFirstText[0]).toMatch(/insert into chat_messages/);
  });
});

describe('AddMessage: the stored statement refusing the message after the upstream was asked', () => {
  it('cuts the upstream off when the points do not cover the message: nothing stored, nothing charged', async () => {
    const poor = await userWith(0);
    // A first message is refused too; it also fills the login cache, as for anyone who chatted before.
    expect((await (await post(poor.token, { aiModelId: 'fast-model', inputMessage: 'warm' })).json()).Code).toBe(10470);
    const { res, request } = await sentWhileHeld(poor.token, { aiModelId: 'slow-model', inputMessage: 'no points' });
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toMatchObject({ Code: 10470, Data: null });
    await vi.waitFor(() => expect(request.outcome).toBe('aborted'), { timeout: 2000, interval: 5 });
    expect(await rowsOf(poor.userId)).toHaveLength(0);
    expect(await ledgerOf(poor.userId)).toHaveLength(0);
    expect(await pointsOf(poor.userId)).toBe(0);
  });

  it('cuts the upstream off when the plan ended after the login was cached: 10450, nothing stored', async () => {
    const vip = await userWith(100);
    const order = await grantVip(t.app, vip.userId, 2);
    await warm(vip, 'plan-model');
    const points = await pointsOf(vip.userId);
    const rows = (await rowsOf(vip.userId)).length;
    // The plan ends (an operator's refund on another instance): the login cache still says level 2.
    await t.database.db.update(vipOrders).set({ endTime: new Date(Date.now() - 1000) }).where(eq(vipOrders.id, order));
    const { res, request } = await sentWhileHeld(vip.token, { aiModelId: 'plan-model', inputMessage: 'still mine?' });
    expect(await res.json()).toMatchObject({ Code: 10450, Data: null });
    await vi.waitFor(() => expect(request.outcome).toBe('aborted'), { timeout: 2000, interval: 5 });
    expect((await rowsOf(vip.userId)).length).toBe(rows);
    expect(await pointsOf(vip.userId)).toBe(points);
    // The cache entry was dropped: the next message is judged on the database's word, before any upstream call.
    const before = fake.requests.length;
    expect(await (await post(vip.token, { aiModelId: 'plan-model', inputMessage: 'again' })).json()).toMatchObject({ Code: 10450 });
    expect(fake.requests.length).toBe(before);
  });

  it('drops the cached login when the statement sees another plan (one bought meanwhile): the next message reads it again', async () => {
    const u = await userWith(100);
    await warm(u);
    await grantVip(t.app, u.userId, 2);
    const messageQueries = async () => {
      const counted = countQueries(t);
      try {
        await readStream(await post(u.token, { aiModelId: 'fast-model', inputMessage: 'plan?' }), () => {});
      } finally {
        counted.restore();
      }
      return counted.seen.filter((q) => /auth_tokens/.test(q) && !/insert into chat_messages/.test(q)).length;
    };
    // The cache still says "free": this message is served from it, and its statement sees level 2.
    expect(await messageQueries()).toBe(0);
    // So the next one asks the database for the login (and caches the new plan) ...
    expect(await messageQueries()).toBe(1);
    // ... and the one after is served from the cache again.
    expect(await messageQueries()).toBe(0);
  });

  it('refuses a token revoked behind the cache (as by another instance) in the statement: 10402', async () => {
    const u = await userWith(100);
    await warm(u);
    const points = await pointsOf(u.userId);
    await t.database.db.update(authTokens).set({ revokedAt: new Date() }).where(eq(authTokens.tokenHash, hashSecret(u.token)));
    const { res, request } = await sentWhileHeld(u.token, { aiModelId: 'slow-model', inputMessage: 'revoked' });
    expect(await res.json()).toMatchObject({ Code: 10402, Data: null });
    await vi.waitFor(() => expect(request.outcome).toBe('aborted'), { timeout: 2000, interval: 5 });
    expect(await pointsOf(u.userId)).toBe(points);
    expect((await rowsOf(u.userId)).map((r) => r.inputMessage)).toEqual(['warm up']);
  });

  it('answers a database failure of the statement with 10500, cuts the upstream off and charges nothing', async () => {
    const u = await userWith(100);
    await warm(u);
    const points = await pointsOf(u.userId);
    await t.database.db.execute(
      sql.raw(`create or replace function tandem_test_fail() returns trigger language plpgsql as $$
        begin
          if new.input_message = 'the database fails' then raise exception 'test: the database failed'; end if;
          return new;
        end $$`),
    );
    await t.database.db.execute(sql.raw('create trigger tandem_test_fail before insert on chat_messages for each row execute function tandem_test_fail()'));
    try {
      const { res, request } = await sentWhileHeld(u.token, { aiModelId: 'slow-model', inputMessage: 'the database fails' });
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      const body = await res.json();
      expect(body).toMatchObject({ Code: 10500, Data: null });
      expect(body.Msg).toMatch(/request/i);
      await vi.waitFor(() => expect(request.outcome).toBe('aborted'), { timeout: 2000, interval: 5 });
      expect((await rowsOf(u.userId)).map((r) => r.inputMessage)).toEqual(['warm up']);
      expect(await pointsOf(u.userId)).toBe(points);
    } finally {
      await t.database.db.execute(sql.raw('drop trigger tandem_test_fail on chat_messages'));
      await t.database.db.execute(sql.raw('drop function tandem_test_fail()'));
    }
  });
});
