import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointBalances, pointLedger } from '../../server/db/schema/points.ts';
import { creditPoints } from '../../server/services/points/ledger.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, onPostgres, type TestApp } from '../helpers/app.ts';
import { parseChatStream } from '../helpers/chat.ts';
import { createUser } from '../helpers/users.ts';

// PGlite has a single connection: parallel requests there are serial and prove nothing.
(onPostgres ? describe : describe.skip)('parallel messages against a small balance', () => {
  let fake: FakeOpenAI;
  let t: TestApp;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await createTestApp({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODELS: 'basic-model', FREE_DAILY_POINTS: '0' });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('charges exactly the points there are: 10 of 50 answered, balance 0, never negative', async () => {
    const user = await createUser(t.app);
    await creditPoints(t.database.db, { userId: user.userId, delta: 10, kind: 'admin', key: `test-grant:${user.userId}` });
    // The upstream is asked beside the charge (and cut off when it is refused): answers slow enough to be cut.
    fake.script('basic-model', { chunks: ['slow ', 'answer'], delayMs: 250 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api(t.app, user).post('/api/Chat/AddMessage', { aiModelId: 'basic-model', inputMessage: `parallel ${i}` }),
      ),
    );
    const streamed = answers.filter((r) => String(r.headers['content-type']).startsWith('text/event-stream'));
    const refused = answers.filter((r) => String(r.headers['content-type']).startsWith('application/json'));
    expect(streamed).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) expect(r.json().Code).toBe(10470);
    for (const r of streamed) expect(parseChatStream(r.body).at(-1)).toMatchObject({ Code: 10000, Data: { FinishReason: 'stop' } });
    expect(fake.requests.filter((r) => r.outcome === 'completed')).toHaveLength(10);

    const [balance] = await t.database.db.select().from(pointBalances).where(eq(pointBalances.userId, user.userId));
    expect(balance.balance).toBe(0);
    const charges = await t.database.db
      .select()
      .from(pointLedger)
      .where(and(eq(pointLedger.userId, user.userId), eq(pointLedger.reason, 'message')));
    expect(charges).toHaveLength(10);
    expect(charges.every((c) => c.delta === -1)).toBe(true);
  });
});
