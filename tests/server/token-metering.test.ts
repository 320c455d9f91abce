import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages } from '../../server/db/schema/chat.ts';
import { aiDeployments } from '../../server/db/schema/models.ts';
import { upstreamFailures } from '../../server/db/schema/usage.ts';
import { adminSaveDeployment, adminSaveModel } from '../../server/services/catalogue/catalogue-admin.ts';
import { estimateTokens } from '../../server/services/chat/token-metering.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../fixtures/fake-anthropic.ts';
import { startFakeGoogle, type FakeGoogle } from '../fixtures/fake-google.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { http } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { testSaveModel } from '../helpers/models.ts';
import { listening, parseChatStream, textOf } from '../helpers/chat.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/**
 * Token metering (docs/admin-stats.md#token-metering): every answer's row records the deployment
 * that answered, its input and output tokens (the provider's, or estimated and marked), the time to
 * its first output; every failed attempt of a deployment is recorded, with whether another was tried.
 * Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */

const SECRET_KEY = 'token-metering-test-secret-key-0123456789';

describe('token metering', () => {
  let openai: FakeOpenAI;
  let anthropic: FakeAnthropic;
  let google: FakeGoogle;
  let t: TestApp;
  let baseUrl: string;
  let user: TestUser;

  const send = async (aiModelId: string, inputMessage = 'Hello there') => {
    const res = await http(baseUrl, user).post('/api/Chat/AddMessage', { aiModelId, inputMessage });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = parseChatStream(await res.text());
    const row = (await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, events[0].Data.ChatMessageId)))[0];
    return { events, row };
  };
  const deploymentsOf = async (aiModelId: string) =>
    (await t.database.db.select().from(aiDeployments).where(eq(aiDeployments.aiModelId, aiModelId))).sort((a, b) => a.priority - b.priority);
  const failuresOf = (messageId: string) => t.database.db.select().from(upstreamFailures).where(eq(upstreamFailures.messageId, messageId));

  /** A model with deployments on the fake OpenAI upstream, tried in the order given. */
  async function modelOn(aiModelId: string, upstreams: string[]) {
    await adminSaveModel(t.app.ctx, testSaveModel(aiModelId));
    for (const [priority, upstream] of upstreams.entries()) {
      await adminSaveDeployment(t.app.ctx, {
        aiModelId,
        provider: 'openai-compatible',
        baseUrl: openai.baseUrl,
        apiKey: 'sk-test-key-1234',
        upstreamModelId: upstream,
        priority,
        enabled: true,
      });
    }
  }

  beforeAll(async () => {
    [openai, anthropic, google] = await Promise.all([startFakeOpenAI(), startFakeAnthropic(), startFakeGoogle()]);
    t = await createTestApp({
      SECRET_KEY,
      FREE_DAILY_POINTS: '1000',
      OPENAI_API_KEY: 'sk-openai-test',
      OPENAI_BASE_URL: openai.baseUrl,
      OPENAI_MODELS: 'oa-usage,oa-none,oa-slow',
      ANTHROPIC_API_KEY: 'sk-ant-test-1234',
      ANTHROPIC_BASE_URL: anthropic.baseUrl,
      ANTHROPIC_MODELS: 'claude-usage',
      GOOGLE_GENERATIVE_AI_API_KEY: 'AIza-test-key-5678',
      GOOGLE_BASE_URL: google.baseUrl,
      GOOGLE_MODELS: 'gemini-usage',
    });
    baseUrl = await listening(t.app);
    user = await createUser(t.app);
    await modelOn('failover-model', ['broken-upstream', 'good-upstream']);
    await modelOn('all-broken', ['broken-a', 'broken-b']);
  });
  afterAll(async () => {
    t?.app.server.closeAllConnections();
    await t?.close();
    await Promise.all([openai?.close(), anthropic?.close(), google?.close()]);
  });

  it('stores the usage an OpenAI-compatible upstream reports, asking for it in the stream, with the deployment and first-output time', async () => {
    openai.script('oa-usage', { chunks: ['Hello', ' world'], usage: { prompt_tokens: 321, completion_tokens: 45 } });
    const { events, row } = await send('oa-usage');
    expect(textOf(events)).toBe('Hello world');
    const [deployment] = await deploymentsOf('oa-usage');
    expect(row).toMatchObject({ deploymentId: deployment.id, inputTokens: 321, outputTokens: 45, tokensEstimated: false });
    expect(row.firstTokenMs).toEqual(expect.any(Number));
    expect(openai.requests.find((r) => r.model === 'oa-usage')!.body.stream_options).toEqual({ include_usage: true });
  });

  it('measures the time to the first output from the request to the deployment', async () => {
    openai.script('oa-slow', { chunks: ['late'], headerDelayMs: 300 });
    const { row } = await send('oa-slow');
    expect(row.firstTokenMs).toBeGreaterThanOrEqual(300);
  });

  it('estimates the tokens, and marks them estimated, when the provider reports no usage', async () => {
    openai.script('oa-none', { chunks: ['Hello', ' 世界'], usage: null });
    const { events, row } = await send('oa-none', 'Say hello');
    expect(textOf(events)).toBe('Hello 世界');
    // Two CJK characters, one token each; six other characters, four to a token (rounded up).
    expect(row).toMatchObject({ tokensEstimated: true, outputTokens: 4 });
    // The conversation sent holds at least the input (two tokens) and the system prompt.
    expect(row.inputTokens).toBeGreaterThanOrEqual(estimateTokens('Say hello'));
  });

  it('stores the usage Anthropic reports', async () => {
    anthropic.script('claude-usage', { chunks: ['one ', 'two ', 'three'] });
    const { events, row } = await send('claude-usage');
    expect(textOf(events)).toBe('one two three');
    const [deployment] = await deploymentsOf('claude-usage');
    // The fake reports 12 input tokens and one output token per chunk.
    expect(row).toMatchObject({ deploymentId: deployment.id, inputTokens: 12, outputTokens: 3, tokensEstimated: false });
  });

  it('stores the usage Google reports', async () => {
    google.script('gemini-usage', { chunks: ['un ', 'deux'] });
    const { events, row } = await send('gemini-usage');
    expect(textOf(events)).toBe('un deux');
    const [deployment] = await deploymentsOf('gemini-usage');
    expect(row).toMatchObject({ deploymentId: deployment.id, inputTokens: 12, outputTokens: 2, tokensEstimated: false });
  });

  it('records a failed deployment as a failover, and meters the deployment that answered', async () => {
    openai.script('broken-upstream', { status: 503 });
    openai.script('good-upstream', { chunks: ['saved'], usage: { prompt_tokens: 7, completion_tokens: 1 } });
    const { events, row } = await send('failover-model');
    expect(textOf(events)).toBe('saved');
    const [broken, good] = await deploymentsOf('failover-model');
    expect(row).toMatchObject({ deploymentId: good.id, inputTokens: 7, outputTokens: 1 });
    const failures = await failuresOf(row.id);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ deploymentId: broken.id, aiModelId: 'failover-model', failedOver: true });
    expect(failures[0].error).toMatch(/^busy 503/);
    expect(failures[0].error).not.toContain('sk-test-key-1234');
  });

  it('records every failed attempt of an answer that failed, the last one not failed over, and no tokens', async () => {
    openai.script('broken-a', { status: 500 });
    openai.script('broken-b', { status: 500 });
    const { events, row } = await send('all-broken');
    expect(events.at(-1)!.Code).not.toBe(10000);
    const [a, b] = await deploymentsOf('all-broken');
    expect(row).toMatchObject({ finishReason: 'error', deploymentId: null, inputTokens: null, outputTokens: null, firstTokenMs: null });
    const failures = (await failuresOf(row.id)).sort((x, y) => (x.deploymentId === a.id ? -1 : y.deploymentId === a.id ? 1 : 0));
    expect(failures.map((f) => [f.deploymentId, f.failedOver])).toEqual([
      [a.id, true],
      [b.id, false],
    ]);
  });

  it('estimates Latin text at four characters a token and CJK at one a character', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('你好世界')).toBe(4);
    expect(estimateTokens('こんにちは한국')).toBe(7);
    // An emoji is one character, not two UTF-16 units.
    expect(estimateTokens('😀😀😀😀')).toBe(1);
  });
});
