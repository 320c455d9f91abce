import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chatMessages } from '../../server/db/schema/chat.ts';
import { responsesFiles } from '../../server/db/schema/responses-files.ts';
import { startFakeResponses, type FakeResponses } from '../fixtures/fake-openai-responses.ts';
import { api } from '../helpers/api.ts';
import { useTestAppWithAdmin } from '../helpers/app.ts';
import { parseChatStream, textOf } from '../helpers/chat.ts';
import { auth, createUser, type TestUser } from '../helpers/users.ts';

/**
 * The Responses API (docs/api.md#the-responses-api) against a fake that speaks it over real HTTP
 * (tests/fixtures/fake-openai-responses.ts): a deployment whose protocol is 'responses' answers
 * AddMessage and SendResponses through it; ResponsesUpload sends the file to its /files and
 * SendResponses passes it as an input_file part, for its owner only.
 */

let fake: FakeResponses;
beforeAll(async () => {
  fake = await startFakeResponses();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const { t, admin } = useTestAppWithAdmin({ SECRET_KEY: 'responses-api-test-secret-key-0123456789' });
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  const as = api(t.app, admin);
  for (const [aiModelId, protocol] of [
    ['resp-model', 'responses'],
    ['chat-model', 'chat'],
  ] as const) {
    expect((await as.postBody('/api/admin/AiModel/Save', { aiModelId, name: aiModelId, pointsCost: 1 })).Code).toBe(10000);
    const saved = await as.postBody('/api/admin/AiModelMap/Save', {
      aiModelId,
      provider: 'openai',
      protocol,
      baseUrl: fake.baseUrl,
      apiKey: 'sk-responses-test',
      upstreamModelId: `${aiModelId}-up`,
    });
    expect(saved).toMatchObject({ Code: 10000, Data: { protocol } });
  }
  alice = await createUser(t.app);
  bob = await createUser(t.app);
});

async function formBody(fields: Record<string, string>, file?: { name: string; bytes: Buffer; type?: string }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name);
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}
async function upload(who: TestUser, fields: Record<string, string>, file?: { name: string; bytes: Buffer }) {
  const { payload, contentType } = await formBody(fields, file);
  const res = await t.app.inject({ method: 'POST', url: '/api/Chat/ResponsesUpload', headers: { ...auth(who.token), 'content-type': contentType }, payload });
  return res.json();
}
const PDF = Buffer.from('%PDF-1.4\n% a tiny test document\n%%EOF\n');

async function post(who: TestUser, url: string, body: Record<string, unknown>) {
  const res = await api(t.app, who).post(url, body);
  return String(res.headers['content-type']).startsWith('text/event-stream') ? { events: parseChatStream(res.body), envelope: null } : { events: [], envelope: res.json() };
}
const userItems = (body: any) => (body.input as any[]).filter((i) => i.role === 'user');

describe('the Responses API', () => {
  it('answers AddMessage through a deployment whose protocol is responses, the same stream, stored the same way', async () => {
    const { events } = await post(alice, '/api/Chat/AddMessage', {
      aiModelId: 'resp-model',
      inputMessage: 'Hello responses',
      chatParams: { temperature: 0.6, maxOutputTokens: 200, systemPrompt: 'Be kind.' },
    });
    expect(events.every((e) => e.Code === 10000)).toBe(true);
    expect(textOf(events)).toBe('Echo: Hello responses');
    expect(events.at(-1)!.Data).toMatchObject({ FinishReason: 'stop', ModelId: 'resp-model' });
    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0];
    expect(sent.model).toBe('resp-model-up');
    expect(sent.headers.authorization).toBe('Bearer sk-responses-test');
    expect(sent.body).toMatchObject({ stream: true, temperature: 0.6, max_output_tokens: 200 });
    expect(JSON.stringify(sent.body.input)).toContain('Be kind.');
    expect(userItems(sent.body).at(-1).content).toEqual([{ type: 'input_text', text: 'Hello responses' }]);
    const [row] = await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, events[0].Data.ChatMessageId));
    expect(row).toMatchObject({ outputMessage: 'Echo: Hello responses', finishReason: 'stop', aiModelId: 'resp-model', inputTokens: 3 });
  });

  it("uploads a file to the deployment's /files and passes its id as an input_file through SendResponses, for its owner only", async () => {
    const uploaded = await upload(alice, { aiModelId: 'resp-model' }, { name: 'report.pdf', bytes: PDF });
    expect(uploaded).toMatchObject({ Code: 10000, Data: { aiModelId: 'resp-model', fileName: 'report.pdf', mimeType: 'application/pdf', byteSize: PDF.length } });
    expect(fake.files).toHaveLength(1);
    expect(fake.files[0]).toMatchObject({ purpose: 'user_data', fileName: 'report.pdf', bytes: PDF.length });
    expect(fake.files[0].headers.authorization).toBe('Bearer sk-responses-test');
    const id = uploaded.Data.responsesFileId as string;
    const [stored] = await t.database.db.select().from(responsesFiles).where(eq(responsesFiles.id, id));
    expect(stored).toMatchObject({ userId: alice.userId, upstreamFileId: 'file-fake1' });

    const { events } = await post(alice, '/api/Chat/SendResponses', { aiModelId: 'resp-model', inputMessage: 'Summarise it', responsesFileIds: [id] });
    expect(textOf(events)).toBe('Echo: Summarise it');
    const content = userItems(fake.requests.at(-1)!.body).at(-1).content;
    expect(content).toContainEqual({ type: 'input_file', file_id: 'file-fake1' });
    expect(content).toContainEqual({ type: 'input_text', text: 'Summarise it' });
    const [row] = await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, events[0].Data.ChatMessageId));
    expect(row).toMatchObject({ outputMessage: 'Echo: Summarise it', finishReason: 'stop', userId: alice.userId });

    // Bob cannot use Alice's file: nothing is asked of the upstream, nothing charged or stored.
    const before = fake.requests.length;
    const refused = await post(bob, '/api/Chat/SendResponses', { aiModelId: 'resp-model', inputMessage: 'Mine now', responsesFileIds: [id] });
    expect(refused.envelope).toMatchObject({ Code: 10404 });
    expect(fake.requests).toHaveLength(before);
    expect(await t.database.db.select().from(chatMessages).where(eq(chatMessages.userId, bob.userId))).toHaveLength(0);
  });

  it('refuses SendResponses and uploads for a model without a Responses deployment, and an upload without a file', async () => {
    const send = await post(alice, '/api/Chat/SendResponses', { aiModelId: 'chat-model', inputMessage: 'x' });
    expect(send.envelope).toMatchObject({ Code: 10400, Msg: 'chat-model has no deployment that speaks the Responses API.' });
    expect((await upload(alice, { aiModelId: 'chat-model' }, { name: 'a.pdf', bytes: PDF })).Code).toBe(10400);
    expect(await upload(alice, { aiModelId: 'resp-model' })).toMatchObject({ Code: 10400, Msg: 'Choose a file to upload.' });
    expect((await upload(alice, { aiModelId: 'nope' }, { name: 'a.pdf', bytes: PDF })).Code).toBe(10404);
    expect(fake.requests).toHaveLength(0);
    expect(fake.files).toHaveLength(0);
  });

  it("maps the upstream's failures to the usual codes: a refused key is misconfigured, a server error busy, mid-stream keeps the text", async () => {
    fake.script('resp-model-up', { status: 401 });
    const denied = await post(alice, '/api/Chat/SendResponses', { aiModelId: 'resp-model', inputMessage: 'key?' });
    expect(denied.events.at(-1)).toMatchObject({ Code: 10462, Data: { FinishReason: 'error' } });

    fake.script('resp-model-up', { status: 500 });
    const busy = await post(alice, '/api/Chat/AddMessage', { aiModelId: 'resp-model', inputMessage: 'busy?' });
    expect(busy.events.at(-1)).toMatchObject({ Code: 10503, Data: { FinishReason: 'error' } });

    fake.script('resp-model-up', { chunks: ['Part ', 'one ', 'two'], failAfter: { chunks: 2, mode: 'error' } });
    const cut = await post(alice, '/api/Chat/AddMessage', { aiModelId: 'resp-model', inputMessage: 'cut' });
    expect(textOf(cut.events)).toBe('Part one ');
    expect(cut.events.at(-1)).toMatchObject({ Data: { FinishReason: 'error' } });
    expect(cut.events.at(-1)!.Code).not.toBe(10000);
    const [row] = await t.database.db.select().from(chatMessages).where(eq(chatMessages.id, cut.events[0].Data.ChatMessageId));
    expect(row).toMatchObject({ outputMessage: 'Part one ', finishReason: 'error' });

    fake.failUploads(401);
    expect((await upload(alice, { aiModelId: 'resp-model' }, { name: 'a.pdf', bytes: PDF })).Code).toBe(10462);
  });

  it('lets an operator set the protocol only on OpenAI-style deployments', async () => {
    const as = api(t.app, admin);
    const refused = await as.postBody('/api/admin/AiModelMap/Save', { aiModelId: 'chat-model', provider: 'anthropic', protocol: 'responses', upstreamModelId: 'claude-x' });
    expect(refused.Code).toBe(10400);
    expect(refused.Msg).toContain('not anthropic');
  });
});
