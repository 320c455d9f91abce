import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminAuditLog } from '../../server/db/schema/audit.ts';
import { chatSessions } from '../../server/db/schema/chat.ts';
import { DEFAULT_PARAM_BOUNDS } from '../../shared/contracts/param-tools.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { api } from '../helpers/api.ts';
import { fakeOpenAIEnv, useTestAppWithAdmin } from '../helpers/app.ts';
import { parseChatStream, textOf } from '../helpers/chat.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/**
 * Model parameters (ParamTools, docs/api.md#model-parameters): the operator's bounds per model, a
 * chat's values checked against them, and what reaches the upstream (the fake OpenAI records each
 * request): temperature, max_tokens and the system message, clamped to the bounds in force.
 */

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const { t, admin } = useTestAppWithAdmin(() => fakeOpenAIEnv(fake, 'p-model,q-model'));
let user: TestUser;
let other: TestUser;
beforeAll(async () => {
  user = await createUser(t.app);
  other = await createUser(t.app);
});

const BOUNDS = {
  temperatureMin: 0.2,
  temperatureMax: 1.2,
  temperatureDefault: null,
  maxOutputTokensMax: 1000,
  maxOutputTokensDefault: null,
  systemPromptAllowed: true,
  systemPromptMaxLength: 50,
};
const saveBounds = (aiModelId: string, bounds: object | null) => api(t.app, admin).postBody('/api/admin/ParamTools/Save', { aiModelId, bounds });
const send = async (who: TestUser, body: Record<string, unknown>) => {
  const res = await api(t.app, who).post('/api/Chat/AddMessage', body);
  return res.headers['content-type']?.toString().startsWith('text/event-stream') ? { events: parseChatStream(res.body), envelope: null } : { events: [], envelope: res.json() };
};
const lastUpstream = () => fake.requests.at(-1)!.body;

describe('ParamTools: bounds, per-chat values, and what the upstream receives', () => {
  it('lists every model with the defaults until the operator sets bounds, audit-logged; bad bounds are refused with a clear message', async () => {
    const list = await api(t.app, admin).getBody('/api/admin/ParamTools/GetList');
    expect(list.Code).toBe(10000);
    const p = list.Data.find((m: { aiModelId: string }) => m.aiModelId === 'p-model');
    expect(p).toMatchObject({ custom: false, bounds: DEFAULT_PARAM_BOUNDS });

    const saved = await saveBounds('p-model', BOUNDS);
    expect(saved).toMatchObject({ Code: 10000, Data: { aiModelId: 'p-model', custom: true, bounds: BOUNDS } });
    expect((await api(t.app, admin).getBody('/api/admin/ParamTools/GetByModelId?aiModelId=p-model')).Data.bounds).toEqual(BOUNDS);
    const audit = await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetType, 'paramTools'));
    expect(audit.at(-1)).toMatchObject({ action: 'ParamTools/Save', targetId: 'p-model' });
    expect((audit.at(-1)!.after as { bounds: object }).bounds).toEqual(BOUNDS);

    const inverted = await saveBounds('p-model', { ...BOUNDS, temperatureMin: 1.5 });
    expect(inverted.Code).toBe(10400);
    expect(inverted.Msg).toContain('The lowest temperature must not be above the highest');
    const zh = await api(t.app, admin).postBody('/api/admin/ParamTools/Save', { aiModelId: 'p-model', bounds: { ...BOUNDS, maxOutputTokensDefault: 5000 } }, { lang: 'zh' });
    expect(zh).toMatchObject({ Code: 10400 });
    expect(zh.Msg).toContain('默认最大回答长度');
    expect((await saveBounds('no-such-model', BOUNDS)).Code).toBe(10404);
    // Users read the bounds for the picker; they cannot set them.
    expect((await api(t.app, user).getBody('/api/ParamTools/GetByModelId?aiModelId=p-model')).Data).toEqual(BOUNDS);
    expect((await api(t.app, user).getBody('/api/ParamTools/GetByModelId?aiModelId=auto')).Data).toEqual(DEFAULT_PARAM_BOUNDS);
    expect((await api(t.app, user).postBody('/api/admin/ParamTools/Save', { aiModelId: 'p-model', bounds: null })).Code).toBe(10403);
  });

  it('sends nothing extra for a chat without parameters on a model without bounds', async () => {
    const { events } = await send(user, { aiModelId: 'q-model', inputMessage: 'plain' });
    expect(textOf(events)).toBe('Echo: plain');
    const body = lastUpstream();
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('max_tokens');
    expect(body.messages.some((m: { role: string }) => m.role === 'system')).toBe(false);
  });

  it("refuses a new chat's parameters outside the bounds before anything is stored, and sends and stores valid ones", async () => {
    const refused = await send(user, { aiModelId: 'p-model', inputMessage: 'hot', chatParams: { temperature: 1.9 } });
    expect(refused.envelope).toMatchObject({ Code: 10400 });
    expect(refused.envelope.Msg).toBe('This model takes a temperature from 0.2 to 1.2.');
    const tooLong = await send(user, { aiModelId: 'p-model', inputMessage: 'x', chatParams: { systemPrompt: 'y'.repeat(51) } });
    expect(tooLong.envelope).toMatchObject({ Code: 10400 });
    expect(tooLong.envelope.Msg).toContain('at most 50 characters');
    expect(fake.requests).toHaveLength(0);

    const { events } = await send(user, {
      aiModelId: 'p-model',
      inputMessage: 'first',
      chatParams: { temperature: 0.9, maxOutputTokens: 300, systemPrompt: 'Answer like a pirate.' },
    });
    expect(textOf(events)).toBe('Echo: first');
    const body = lastUpstream();
    expect(body.temperature).toBe(0.9);
    expect(body.max_tokens).toBe(300);
    expect(body.messages[0]).toEqual({ role: 'system', content: 'Answer like a pirate.' });
    const sessionId = events[0].Data.ChatSessionId;
    const [row] = await t.database.db.select().from(chatSessions).where(eq(chatSessions.id, sessionId));
    expect(row.params).toEqual({ temperature: 0.9, maxOutputTokens: 300, systemPrompt: 'Answer like a pirate.' });

    const got = await api(t.app, user).getBody(`/api/ParamTools/GetBySession?chatSessionId=${sessionId}&aiModelId=p-model`);
    expect(got.Data).toMatchObject({
      params: { temperature: 0.9, maxOutputTokens: 300, systemPrompt: 'Answer like a pirate.' },
      effective: { temperature: 0.9, maxOutputTokens: 300, systemPrompt: 'Answer like a pirate.' },
      bounds: BOUNDS,
    });
    // Another user's chat is not found, to read or to write.
    expect((await api(t.app, other).getBody(`/api/ParamTools/GetBySession?chatSessionId=${sessionId}`)).Code).toBe(10404);
    expect((await api(t.app, other).postBody('/api/ParamTools/SaveBySession', { chatSessionId: sessionId, aiModelId: 'p-model', temperature: 0.5 })).Code).toBe(10404);
  });

  it("saves an existing chat's parameters within the bounds, applies them to the next message, and clamps them once the operator narrows the bounds or the chat switches models", async () => {
    const { events } = await send(user, { aiModelId: 'p-model', inputMessage: 'start' });
    const chatSessionId = events[0].Data.ChatSessionId;
    const save = (body: object) => api(t.app, user).postBody('/api/ParamTools/SaveBySession', { chatSessionId, aiModelId: 'p-model', ...body });
    const bad = await save({ maxOutputTokens: 5000 });
    expect(bad).toMatchObject({ Code: 10400, Msg: 'This model takes a maximum answer length of at most 1000 tokens.' });
    const ok = await save({ temperature: 1.1, maxOutputTokens: 800, systemPrompt: '  Be brief.  ' });
    expect(ok).toMatchObject({ Code: 10000, Data: { params: { temperature: 1.1, maxOutputTokens: 800, systemPrompt: 'Be brief.' } } });

    await send(user, { aiModelId: 'p-model', chatSessionId, inputMessage: 'next' });
    expect(lastUpstream()).toMatchObject({ temperature: 1.1, max_tokens: 800 });
    expect(lastUpstream().messages[0]).toEqual({ role: 'system', content: 'Be brief.' });

    // The operator narrows the bounds: the stored values stay, what is sent fits the new ones.
    await saveBounds('p-model', { ...BOUNDS, temperatureMax: 0.5, maxOutputTokensMax: 100, systemPromptAllowed: false });
    await send(user, { aiModelId: 'p-model', chatSessionId, inputMessage: 'after' });
    const clamped = lastUpstream();
    expect(clamped).toMatchObject({ temperature: 0.5, max_tokens: 100 });
    expect(clamped.messages.some((m: { role: string }) => m.role === 'system')).toBe(false);
    const view = await api(t.app, user).getBody(`/api/ParamTools/GetBySession?chatSessionId=${chatSessionId}&aiModelId=p-model`);
    expect(view.Data).toMatchObject({ params: { temperature: 1.1, maxOutputTokens: 800 }, effective: { temperature: 0.5, maxOutputTokens: 100, systemPrompt: '' } });

    // Switching the chat to another model clamps to that model's bounds.
    await saveBounds('q-model', { ...DEFAULT_PARAM_BOUNDS, temperatureMax: 0.3 });
    await send(user, { aiModelId: 'q-model', chatSessionId, inputMessage: 'switched' });
    expect(lastUpstream()).toMatchObject({ temperature: 0.3, max_tokens: 800 });
    expect(lastUpstream().messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    await saveBounds('q-model', null);
    await saveBounds('p-model', BOUNDS);
  });

  it("applies the model's defaults to a chat that set nothing", async () => {
    await saveBounds('q-model', { ...DEFAULT_PARAM_BOUNDS, temperatureDefault: 0.4, maxOutputTokensDefault: 256 });
    await send(user, { aiModelId: 'q-model', inputMessage: 'defaults' });
    expect(lastUpstream()).toMatchObject({ temperature: 0.4, max_tokens: 256 });
    await saveBounds('q-model', null);
    await send(user, { aiModelId: 'q-model', inputMessage: 'none' });
    expect(lastUpstream()).not.toHaveProperty('temperature');
  });
});
