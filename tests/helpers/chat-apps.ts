import { afterAll, beforeAll } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { createTestApp, fakeOpenAIEnv, type TestApp } from './app.ts';
import { listening } from './chat.ts';
import { createUser, type TestUser } from './users.ts';

/** The buses two instances can share a live answer over: PostgreSQL always, Redis when the run has one. */
export const buses: { name: string; env: Record<string, string> }[] = [
  { name: 'PostgreSQL LISTEN/NOTIFY', env: {} },
  ...(process.env.TEST_REDIS_URL ? [{ name: 'Redis', env: { REDIS_URL: process.env.TEST_REDIS_URL } }] : []),
];

/** One app over real HTTP with the fake OpenAI serving `models`, and a signed-in user. */
export async function startChatApp(models: string): Promise<{ fake: FakeOpenAI; t: TestApp; user: TestUser; baseUrl: string }> {
  const fake = await startFakeOpenAI();
  const t = await createTestApp(fakeOpenAIEnv(fake, models));
  const user = await createUser(t.app);
  const baseUrl = await listening(t.app);
  return { fake, t, user, baseUrl };
}

export async function closeChatApp(t: TestApp, fake: FakeOpenAI) {
  // undici opens a spare connection after an aborted fetch; it would hold server.close() for 60 s.
  t.app.server.closeAllConnections();
  await t.close();
  await fake.close();
}

interface TwoInstances {
  fake: FakeOpenAI;
  a: TestApp;
  b: TestApp;
  urlA: string;
  urlB: string;
}

/**
 * Two instances on one database (A's), listening over real HTTP, with the fake OpenAI serving
 * `models`: started before the describe's tests and closed after them. The object is filled in when
 * they start; tests read `two.a`, `two.urlB`, ...
 */
export function useTwoInstances(env: Record<string, string>, models: string): TwoInstances {
  const two = {} as TwoInstances;
  beforeAll(async () => {
    two.fake = await startFakeOpenAI();
    const modelEnv = { ...env, ...fakeOpenAIEnv(two.fake, models) };
    two.a = await createTestApp(modelEnv);
    two.b = await createTestApp(modelEnv, { databaseUrl: two.a.databaseUrl });
    two.urlA = await listening(two.a.app);
    two.urlB = await listening(two.b.app);
  });
  afterAll(async () => {
    // Any part may be missing when the start failed half-way.
    two.b?.app.server.closeAllConnections();
    two.a?.app.server.closeAllConnections();
    await two.b?.close();
    await two.a?.close();
    await two.fake?.close();
  });
  return two;
}
