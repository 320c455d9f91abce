import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t as translate } from '../../server/core/i18n.ts';
import { startFakeOpenAI, type FakeOpenAI, type Script } from '../fixtures/fake-openai.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { parseChatStream, textOf } from '../helpers/chat.ts';
import { captureLog } from '../helpers/log-capture.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/**
 * One mapping from failures to Codes (server/core/failures.ts): what the user sees for each class
 * of failure, in the stream and in JSON answers, and what the operator reads in the log.
 */

const KEY = 'sk-mapping-test-key-0123456789abcdef';

describe('failures and the Codes users see', () => {
  const log = captureLog();
  let fake: FakeOpenAI;
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await createTestApp(
      {
        LOG_LEVEL: 'info',
        OPENAI_API_KEY: KEY,
        OPENAI_BASE_URL: fake.baseUrl,
        OPENAI_MODELS: 'm-busy,m-auth,m-gone,m-long,m-slow,m-tools',
        MODEL_FIRST_TEXT_TIMEOUT_SECONDS: '1',
        AUTH_RATE_LIMIT: '1000',
      },
      { logger: log.logger },
    );
    user = await createUser(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const add = async (body: Record<string, unknown>, lang = 'en') => {
    return api(t.app, user).post('/api/Chat/AddMessage', { chatMediaIds: [], ...body }, { lang });
  };
  const lastEvent = async (model: string, script: Script, lang = 'en') => {
    fake.script(model, script);
    log.clear();
    const events = parseChatStream((await add({ aiModelId: model, inputMessage: 'hello' }, lang)).body);
    return { last: events.at(-1)!, text: textOf(events) };
  };
  const deploymentWarning = () => log.entries.find((e) => e.msg === 'deployment failed; trying the next');

  const classes: { label: string; model: string; script: Script; code: number; key: Parameters<typeof translate>[1]; kind: string }[] = [
    { label: 'a rate limit or overload', model: 'm-busy', script: { status: 429 }, code: 10503, key: 'modelBusy', kind: 'busy' },
    { label: 'a refused key', model: 'm-auth', script: { status: 401, errorMessage: `Incorrect API key provided: ${KEY}` }, code: 10462, key: 'modelMisconfigured', kind: 'auth' },
    { label: 'a model the provider does not know', model: 'm-gone', script: { status: 404, errorMessage: 'The model `m-gone` does not exist' }, code: 10462, key: 'modelMisconfigured', kind: 'not-found' },
    {
      label: 'a conversation too long',
      model: 'm-long',
      script: { status: 400, errorMessage: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens." },
      code: 10414,
      key: 'contextTooLong',
      kind: 'context-too-long',
    },
    { label: 'no answer in time', model: 'm-slow', script: { headerDelayMs: 2500, chunks: ['late'] }, code: 10504, key: 'modelTimeout', kind: 'timeout' },
  ];

  for (const c of classes) {
    it(`tells the user what went wrong on ${c.label}, and names the deployment in the log`, async () => {
      for (const lang of ['en', 'zh-CN']) {
        const { last, text } = await lastEvent(c.model, c.script, lang);
        expect(last.Code).toBe(c.code);
        expect(last.Msg).toBe(translate(lang === 'en' ? 'en' : 'zh', c.key));
        expect(last.Data.FinishReason).toBe('error');
        expect(text).toBe('');
        expect(deploymentWarning()).toMatchObject({ level: 40, deploymentId: expect.any(String), model: c.model, kind: c.kind });
      }
      expect(log.text).not.toContain(KEY);
      expect(log.entries.some((e) => e.level >= 50)).toBe(false);
    });
  }

  it('answers our own failure inside a stream as 10500, logged with its stack and request id', async () => {
    // A database failure while a tool call is charged: a fault of ours, not the model's.
    await t.database.db.execute(sql.raw(`create or replace function tandem_test_fail() returns trigger as $$
      begin raise exception 'forced failure'; end $$ language plpgsql`));
    await t.database.db.execute(sql.raw(`create trigger tandem_test_fail_ledger before insert on point_ledger for each row
      when (new.reason = 'plugin') execute function tandem_test_fail()`));
    try {
      fake.script('m-tools', { toolCalls: [{ name: 'read_url', arguments: { url: 'https://example.com/' } }] });
      log.clear();
      const res = await add({ aiModelId: 'm-tools', inputMessage: 'read it', pluginIds: ['read_url'] });
      const last = parseChatStream(res.body).at(-1)!;
      expect(last.Code).toBe(10500);
      expect(last.Data.FinishReason).toBe('error');
      const logged = log.entries.find((e) => e.msg === 'answering a message failed');
      expect(logged).toMatchObject({ level: 50, reqId: expect.any(String), err: { type: 'DatabaseError', stack: expect.stringContaining('at ') } });
      expect(last.Msg).toBe(translate('en', 'internalError', { requestId: logged!.reqId }));
    } finally {
      await t.database.db.execute(sql.raw('drop trigger tandem_test_fail_ledger on point_ledger'));
    }
  });

  it('answers our own failure outside a stream as 10500 with HTTP 500, logged with its stack and request id', async () => {
    await t.database.db.execute(sql.raw(`create trigger tandem_test_fail_sessions before update on chat_sessions for each row execute function tandem_test_fail()`));
    try {
      fake.script('m-busy', { chunks: ['ok'] });
      const first = parseChatStream((await add({ aiModelId: 'm-busy', inputMessage: 'hi' })).body)[0];
      log.clear();
      const res = await api(t.app, user).post('/api/Chat/UpdateSessionTitle', { chatSessionId: first.Data.ChatSessionId, sessionTitle: 'renamed' });
      expect(res.statusCode).toBe(500);
      const logged = log.entries.find((e) => e.msg === 'unhandled error');
      expect(logged).toMatchObject({ level: 50, reqId: expect.any(String), err: { type: 'DatabaseError', operation: expect.stringMatching(/^update "chat_sessions"/) } });
      expect(res.json()).toEqual({ Code: 10500, Msg: translate('en', 'internalError', { requestId: logged!.reqId }), Data: null });
    } finally {
      await t.database.db.execute(sql.raw('drop trigger tandem_test_fail_sessions on chat_sessions'));
    }
  });
});
