import { randomBytes, randomUUID } from 'node:crypto';
import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MEMORIES } from '../../shared/contracts/personalization.ts';
import { MAX_USER_QUICK_FUNCTIONS } from '../../shared/contracts/quick-function.ts';
import { MAX_SHARES_PER_USER } from '../../shared/contracts/share.ts';
import { chatMessages, chatSessions } from '../../server/db/schema/chat.ts';
import { memories } from '../../server/db/schema/personalization.ts';
import { userQuickFunctions } from '../../server/db/schema/quick-functions.ts';
import { chatShares } from '../../server/db/schema/shares.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { addressesUnder, createUser, type TestUser } from '../helpers/users.ts';

/**
 * Every per-user limit holds under concurrency (docs/security.md#per-user-limits): each test fills
 * the account to just under its limit, then fires many requests at once and checks the count never
 * passes it. Meaningful on PostgreSQL (TEST_DATABASE_URL), where requests really run side by side.
 */

const CONCURRENT = 24;

describe('per-user limits under concurrency', () => {
  let t: TestApp;
  const address = addressesUnder('10.33');

  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT: '1000' });
  });
  afterAll(async () => t?.close());

  const fire = (user: TestUser, url: string, payload: (i: number) => object) =>
    Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) =>
        api(t.app, user).postBody(url, payload(i), { remoteAddress: address() }),
      ),
    );

  async function fillPrompts(user: TestUser, n: number) {
    await t.database.db.insert(userQuickFunctions).values(
      Array.from({ length: n }, (_, i) => ({ id: randomUUID(), userId: user.userId, name: `p${i}`, template: 'x', sort: i })),
    );
  }
  const promptCount = async (user: TestUser) =>
    (await t.database.db.select({ n: count() }).from(userQuickFunctions).where(eq(userQuickFunctions.userId, user.userId)))[0]!.n;

  it('prompt imports: concurrent imports never store more than the limit', async () => {
    const user = await createUser(t.app);
    await fillPrompts(user, MAX_USER_QUICK_FUNCTIONS - 10);
    const answers = await fire(user, '/api/QuickFunction/ImportUserQuickFunction', (i) => ({
      version: 1,
      items: Array.from({ length: 5 }, (_, k) => ({ key: `k${k}`, name: `import ${i}.${k}`, template: 'hello {{selection}}', appliesTo: ['selection'] })),
    }));
    expect(answers.filter((a) => a.Code === 10000), JSON.stringify(answers[0])).toHaveLength(2);
    expect(answers.filter((a) => a.Code !== 10000).every((a) => a.Code === 10400)).toBe(true);
    expect(await promptCount(user)).toBe(MAX_USER_QUICK_FUNCTIONS);
  });

  it('prompt saves: concurrent saves stop exactly at the limit', async () => {
    const user = await createUser(t.app);
    await fillPrompts(user, MAX_USER_QUICK_FUNCTIONS - 3);
    const answers = await fire(user, '/api/QuickFunction/SaveUserQuickFunction', (i) => ({ name: `saved ${i}`, template: 'hi', appliesTo: ['selection'] }));
    expect(answers.filter((a) => a.Code === 10000), JSON.stringify(answers[0])).toHaveLength(3);
    expect(await promptCount(user)).toBe(MAX_USER_QUICK_FUNCTIONS);
  });

  it('share links: concurrent requests never make more live links than the limit', async () => {
    const user = await createUser(t.app);
    const sessionId = randomUUID();
    const messageId = randomUUID();
    const createdAt = new Date(Date.UTC(2026, 5, 1));
    await t.database.db.insert(chatSessions).values({ id: sessionId, userId: user.userId, title: 'shared' });
    await t.database.db.insert(chatMessages).values({
      id: messageId, sessionId, userId: user.userId, inputMessage: 'q', outputMessage: 'a', requestedModelId: 'm', modelName: 'M', finishReason: 'stop', mediaIds: [], createdAt,
    });
    await t.database.db.insert(chatShares).values(
      Array.from({ length: MAX_SHARES_PER_USER - 4 }, () => ({ id: randomBytes(16).toString('base64url'), userId: user.userId, sessionId, uptoCreatedAt: createdAt, uptoMessageId: messageId })),
    );
    const answers = await fire(user, '/api/Chat/ShareSession', () => ({ chatSessionId: sessionId }));
    expect(answers.filter((a) => a.Code === 10000)).toHaveLength(4);
    const [{ n }] = await t.database.db.select({ n: count() }).from(chatShares).where(and(eq(chatShares.userId, user.userId), isNull(chatShares.revokedAt)));
    expect(n).toBe(MAX_SHARES_PER_USER);
  });

  it('memory: concurrent saves never keep more facts than the limit', async () => {
    const user = await createUser(t.app);
    await t.database.db.insert(memories).values(Array.from({ length: MAX_MEMORIES - 2 }, (_, i) => ({ id: randomUUID(), userId: user.userId, fact: `fact ${i}` })));
    const answers = await fire(user, '/api/Memory/Save', (i) => ({ fact: `new fact ${i}` }));
    expect(answers.filter((a) => a.Code === 10000), JSON.stringify(answers[0])).toHaveLength(2);
    const [{ n }] = await t.database.db.select({ n: count() }).from(memories).where(eq(memories.userId, user.userId));
    expect(n).toBe(MAX_MEMORIES);
  });
});
