import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteTableEntry } from '../../server/http/route.ts';
import { Codes } from '../../shared/contracts/envelope.ts';
import { makeDocx } from '../fixtures/documents.ts';
import { TINY_PNG, startFakeImages, type FakeImages } from '../fixtures/fake-images.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { startFakeResponses, type FakeResponses } from '../fixtures/fake-openai-responses.ts';
import { startFakeSearxng, type FakeSearxng } from '../fixtures/fake-searxng.ts';
import { startFakeStripe, type FakeStripe } from '../fixtures/fake-stripe.ts';
import { startFakeSmtp, type FakeSmtp } from '../fixtures/smtp-server.ts';
import { startFakeOidc, type FakeOidc } from '../fixtures/fake-oidc.ts';
import { reservePort } from '../helpers/ports.ts';
import { CookieJar, providerSignIn } from '../helpers/provider-flow.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { parseChatStream } from '../helpers/chat.ts';
import { allowOnlyLoopbackConnections } from '../helpers/loopback-only.ts';
import { api, headersFor } from '../helpers/api.ts';
import { answerChecker, answersEndless, fetchApiDocument, injectToFirstEvent, operationOf, sampleRequest, type Answer, type OpenApi } from '../helpers/openapi.ts';
import { auth, createAdmin, createUser, type TestUser } from '../helpers/users.ts';

/**
 * The API reference (/api/docs/json) tells the truth: it is a valid OpenAPI document, it lists every
 * code of `Codes` as docs/api.md does, and every real answer of every route of the route table
 * (signed out, signed in, with bad input; streams, bytes, server faults and the shutdown answer too)
 * has a status, a content type and a body the document declares for that route.
 */

// Sample requests carry made-up addresses (https://guard.example.com/): nothing may leave loopback.
allowOnlyLoopbackConnections();

const ARTICLE = `<!doctype html><html><head><meta charset="utf-8"><title>Otters</title></head><body><article><h1>Sea otters</h1>
<p>${'Sea otters hold hands while they sleep, so that they do not drift apart. '.repeat(8)}</p></article></body></html>`;

/** A website on loopback (READER_ALLOWLIST names it): a page for UploadMedia and an image for ProxyImage. */
async function startSite(): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    if (req.url === '/image.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(TINY_PNG);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A multipart/form-data body, as a browser's FormData sends it. */
async function formBody(fields: Record<string, string>, file: { field: string; name: string; bytes: Buffer }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append(file.field, new Blob([new Uint8Array(file.bytes)]), file.name);
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

const WEBHOOK = '/api/Vip/StripeWebhook';

const UPLOAD_ROUTES = new Set(['/api/admin/MarketActivity/UploadImage', '/api/Chat/AddChatMedia', '/api/Chat/UploadMediaByFile', '/api/Chat/AddChatFileToAi', '/api/Account/AddUserForHeadImg', '/api/admin/Poster/SavePicture']);

/** Calls that end what later calls need (the session, the model, the account): made last, in this order. */
const LAST = ['/api/admin/MarketActivity/End', '/api/admin/MarketActivity/Delete', '/api/UserPrompt/Withdraw', '/api/User/DeleteUserProvider', '/api/admin/SignInProvider/Delete', '/api/Chat/RevokeShare', '/api/QuickFunction/DeleteUserQuickFunction', '/api/admin/QuickFunction/Delete', '/api/admin/AiPrompWord/Delete', '/api/admin/TagPrompt/Delete', '/api/admin/AiModelType/Delete', '/api/Vip/DeleteVipOrder', '/api/Chat/DeleteMessage', '/api/Chat/DeleteSessions', '/api/admin/AiModelMap/Delete', '/api/admin/AiModel/Delete', '/api/admin/System/DeleteSetting', '/api/admin/User/Close', '/api/admin/User/Delete', '/api/Account/UpdateUserPassword', '/api/User/Logout', '/api/User/LogoutAll'];
/** Ends every login of whoever calls it: called with accounts of its own, so the calls after it keep theirs. */
const LOGOUT_ALL = '/api/User/LogoutAll';
const lastRank = (route: RouteTableEntry) => LAST.indexOf(route.url);
const inCallOrder = (table: RouteTableEntry[]) => [...table].sort((a, b) => lastRank(a) - lastRank(b));

/** What the document is checked against: a reply's status, content type and body. */
const answerFrom = (res: LightMyRequestResponse): Answer => ({ status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), body: res.body });

type Sent = { method: string; url: string; headers?: Record<string, string>; payload?: string | Buffer };

// The app, its fake services and the document of the describes below (all but the last, which make apps of their own).
let fake: FakeOpenAI;
// A deployment speaking the Responses API, for SendResponses and ResponsesUpload.
let responses: FakeResponses;
let searx: FakeSearxng;
let images: FakeImages;
let site: { server: Server; origin: string };
let stripe: FakeStripe;
// Mail goes out (SendVerifyEmail answers success only then), to a server on loopback.
let smtp: FakeSmtp;
let t: TestApp;
let doc: OpenApi;
let check: ReturnType<typeof answerChecker>;
let owner: TestUser;
// A real OpenID provider, for the sign-in-with-another-account routes (the app listens: the browser's part goes over HTTP).
let oidc: FakeOidc;
let appUrl: string;

/**
 * Sends a request as described, raw (the sweep below sends bad input too). An endless stream (the
 * live unread count, `x-endless`) is read to its first event, then let go.
 */
const answerOf = async (sent: Sent): Promise<Answer> => {
  const request = { method: sent.method as 'GET' | 'POST', url: sent.url, headers: sent.headers, payload: sent.payload };
  if (answersEndless(operationOf(doc, { method: sent.method, url: sent.url.split('?')[0]! }))) return injectToFirstEvent(t.app, request);
  return answerFrom(await t.app.inject(request));
};
const json = (payload: unknown) => ({ 'content-type': 'application/json-patch+json', payload: JSON.stringify(payload) });

beforeAll(async () => {
  [fake, searx, images, site, stripe, smtp, responses] = await Promise.all([
    startFakeOpenAI(),
    startFakeSearxng(),
    startFakeImages(),
    startSite(),
    startFakeStripe(),
    startFakeSmtp(),
    startFakeResponses(),
  ]);
  const port = await reservePort();
  appUrl = `http://127.0.0.1:${port.port}`;
  oidc = await startFakeOidc({ redirectUris: [`${appUrl}/api/Provider/Callback`] });
  t = await createTestApp({
    PUBLIC_URL: appUrl,
    OIDC_PROVIDERS: JSON.stringify([{ key: 'doc-oidc', name: 'Doc ID', issuer: oidc.issuer, clientId: oidc.clientId, clientSecret: oidc.clientSecret }]),
    OPENAI_API_KEY: 'test',
    OPENAI_BASE_URL: fake.baseUrl,
    OPENAI_MODELS: 'doc-model',
    SEARXNG_URL: searx.url,
    IMAGES_BASE_URL: images.baseUrl,
    IMAGES_API_KEY: 'test',
    READER_ALLOWLIST: `${searx.host},${new URL(site.origin).host}`,
    AUTH_RATE_LIMIT: '1000',
    STRIPE_SECRET_KEY: 'sk_test_doc',
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_BASE: stripe.url,
    SMTP_URL: smtp.url,
  });
  doc = await fetchApiDocument(t.app);
  check = answerChecker(doc);
  owner = await createAdmin(t.app);
  await port.release();
  await t.app.listen({ port: port.port, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await Promise.all([oidc?.close(), fake.close(), responses.close(), searx.close(), images.close(), stripe.close(), smtp.close(), new Promise((r) => site.server.close(r))]);
});

describe('the API reference: the document', () => {
  it('is a valid OpenAPI 3.0 document', async () => {
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toMatch(/^3\.0\./);
  });

  it('lists every code of Codes, with what it means and what to do, as docs/api.md does', () => {
    const codes = Object.entries(Codes).map(([name, code]) => ({ name, code }));
    expect(doc['x-codes']?.map(({ name, code }) => ({ name, code }))).toEqual(codes);
    for (const c of doc['x-codes'] ?? []) {
      expect(c.meaning.length, c.name).toBeGreaterThan(10);
      expect(c.action.length, c.name).toBeGreaterThan(3);
      expect(doc.info.description).toContain(`| ${c.code} | ${c.name} | ${c.meaning} | ${c.action} |`);
    }
    // docs/api.md#codes: one row per code, `| 10400 | BadRequest | meaning | what to do |`, and no other.
    const apiMd = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const section = apiMd.slice(apiMd.indexOf('## Codes'), apiMd.indexOf('\n## ', apiMd.indexOf('## Codes') + 1));
    const rows = [...section.matchAll(/^\| (\d{5}) +\| (\w+) +\|.*\| ([^|]+) \|$/gm)].map((m) => ({ code: Number(m[1]), name: m[2], action: m[3] }));
    const byCode = (a: { code: number }, b: { code: number }) => a.code - b.code;
    expect(rows.sort(byCode)).toEqual((doc['x-codes'] ?? []).map(({ code, name, action }) => ({ code, name, action })).sort(byCode));
    expect(rows.map(({ code, name }) => ({ code, name }))).toEqual(codes.sort(byCode));
  });

  it('declares for every route the envelope with its failures, the server fault and the shutdown answer', () => {
    const failure = { Code: Codes.NotLoggedIn, Msg: 'Please log in', Data: null };
    const wrong: string[] = [];
    for (const route of t.app.routeTable) {
      const op = operationOf(doc, route);
      const statuses = Object.keys(op?.responses ?? {});
      if (!statuses.includes('200') || !statuses.includes('500') || !statuses.includes('503')) wrong.push(`${route.method} ${route.url}: ${statuses}`);
      // A stored .json file is served as application/json too, so that route's JSON may be anything.
      if (route.url === '/api/Chat/GetChatMedia') continue;
      const fails = (a: Answer) => check(route, a).length > 0;
      if (fails({ status: 200, contentType: 'application/json; charset=utf-8', body: JSON.stringify(failure) })) wrong.push(`${route.url}: no failure envelope under 200`);
      if (!fails({ status: 200, contentType: 'application/json', body: JSON.stringify({ ...failure, Code: 12345 }) })) wrong.push(`${route.url}: takes an unknown Code`);
      if (!fails({ status: 200, contentType: 'application/json', body: JSON.stringify({ ...failure, Data: {} }) })) wrong.push(`${route.url}: takes a failure with Data`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('the API reference: streams and stored files', () => {
  const addMessage = { method: 'POST', url: '/api/Chat/AddMessage' };
  const send = async (token: string, body: Record<string, unknown>) => answerFrom(await api(t.app, token).post(addMessage.url, body));

  it('describes every event of a real AddMessage stream: text, citations, tool calls, and a failure at its end', async () => {
    const user = await createUser(t.app);
    searx.pages.set('otters', ARTICLE);
    searx.results([{ title: 'Otters', url: searx.page('otters'), content: 'Otters hold hands.' }]);
    fake.script('doc-model', { toolCalls: [{ name: 'read_url', arguments: { url: `${site.origin}/article` } }], chunks: ['Otters ', 'raft [1].'] });
    const answer = await send(user.token, { aiModelId: 'doc-model', inputMessage: 'Why do otters hold hands?', webSearch: true, pluginIds: ['read_url'] });
    expect(answer.contentType).toMatch(/^text\/event-stream/);
    expect(check(addMessage, answer)).toEqual([]);
    const events = parseChatStream(answer.body);
    expect(events.some((e) => (e.Data as { Citations?: unknown[] }).Citations?.length)).toBe(true);
    expect(events.some((e) => (e.Data as { ToolCalls?: { status: string }[] }).ToolCalls?.some((c) => c.status === 'completed'))).toBe(true);
    expect(events.at(-1)!.Data.FinishReason).toBe('stop');

    // The model fails mid-stream: the last event carries the failure Code, still an event of the document.
    fake.script('doc-model', { chunks: ['Hel', 'lo ', 'there'], failAfter: { chunks: 1, mode: 'error' } });
    const failed = await send(user.token, { aiModelId: 'doc-model', inputMessage: 'fail please' });
    expect(check(addMessage, failed)).toEqual([]);
    expect(parseChatStream(failed.body).at(-1)).toMatchObject({ Code: Codes.ModelBusy, Data: { FinishReason: 'error' } });
    fake.reset();

    // What the document does not say is caught: a field it does not know, a stream without its end.
    expect(check(addMessage, { ...failed, body: failed.body.replace('"ReplaceMessage":false', '"ReplaceMessage":false,"Extra":1') })).not.toEqual([]);
    expect(check(addMessage, { ...failed, body: failed.body.replace('data: DONE\n\n', '') })).not.toEqual([]);
  });

  it('describes stored files as GetChatMedia serves them: an image inline, any other file as a download', async () => {
    const user = await createUser(t.app);
    const route = { method: 'GET', url: '/api/Chat/GetChatMedia' };
    const kinds = [
      { fields: { mediaType: 'image' }, file: { field: 'imageFile', name: 'dot.png', bytes: TINY_PNG }, type: /^image\/png$/ },
      { fields: { mediaType: 'file' }, file: { field: 'pageFile', name: 'notes.txt', bytes: Buffer.from('Otters hold hands.') }, type: /^text\/plain/ },
    ];
    for (const kind of kinds) {
      const form = await formBody(kind.fields, kind.file);
      const uploaded = JSON.parse((await answerOf({ method: 'POST', url: '/api/Chat/AddChatMedia', headers: { ...auth(user.token), 'content-type': form.contentType }, payload: form.payload })).body);
      const answer = answerFrom(await api(t.app, user).get(`${route.url}?chatMediaId=${uploaded.Data.chatMediaId}`));
      expect(answer.contentType).toMatch(kind.type);
      expect(check(route, answer)).toEqual([]);
    }
  });
});

/** Ids and values that exist, so that the signed-in calls can succeed: a session, a message, media, a deployment. */
async function seed() {
  const png = await formBody({ mediaType: 'image' }, { field: 'imageFile', name: 'dot.png', bytes: TINY_PNG });
  const upload = JSON.parse((await answerOf({ method: 'POST', url: '/api/Chat/AddChatMedia', headers: { ...auth(owner.token), 'content-type': png.contentType }, payload: png.payload })).body);
  const link = new URL(upload.Data.image.imgSrcAll, 'http://x');
  const events = parseChatStream((await api(t.app, owner).post('/api/Chat/AddMessage', { aiModelId: 'doc-model', inputMessage: 'Hello' })).body);
  const deployments = (await api(t.app, owner).getBody('/api/admin/AiModelMap/GetList?aiModelId=doc-model'));
  // A model whose deployment speaks the Responses API, with a file uploaded for it (SendResponses, ResponsesUpload).
  await api(t.app, owner).postBody('/api/admin/AiModel/Save', { aiModelId: 'doc-responses', name: 'Doc responses' });
  await api(t.app, owner).postBody('/api/admin/AiModelMap/Save', { aiModelId: 'doc-responses', provider: 'openai', protocol: 'responses', baseUrl: responses.baseUrl, upstreamModelId: 'doc-responses' });
  const victim = await createUser(t.app);
  // A second account, with a password-reset link of its own (SendPasswordReset of the sweep makes the victim's older links useless).
  const resetee = await createUser(t.app);
  const resetLink = (await api(t.app, owner).postBody('/api/admin/User/SendPasswordReset', { userId: resetee.userId })).Data.link;
  const login = (await api(t.app).postBody('/api/Account/Login', { email: victim.email, password: victim.password }));
  const batch = { name: 'openapi', count: 1, points: 5, usesPerCode: 100 };
  const { batchId } = (await api(t.app, owner).postBody('/api/admin/RedeemCode/GenerateBatch', batch)).Data;
  const codes = (await api(t.app, owner).getBody(`/api/admin/RedeemCode/GetCodeList?batchId=${batchId}`)).Data;
  const vipOrderId = await subscribeOwner();
  const coupon = (await api(t.app, owner).postBody('/api/admin/Coupons/Save', { code: 'DOC-SEED', percentOff: 10 })).Data;
  // A favourite of the owner's answer, for GetById, Update and Delete of /api/Save.
  const favourite = (await api(t.app, owner).postBody('/api/Save/Add', { chatMessageId: events[0]!.Data.ChatMessageId })).Data;
  // A remembered fact of the owner's, proposed by the seeded answer, for Memory/Update and Delete.
  const memory = (await api(t.app, owner).postBody('/api/Memory/Save', { fact: 'Writes Python', sourceMessageId: events[0]!.Data.ChatMessageId })).Data;
  // One of the owner's own quick functions, for the user quick-function calls.
  const ownTool = (await api(t.app, owner).postBody('/api/QuickFunction/SaveUserQuickFunction', { name: 'Doc tool', template: 'Do {selection}', appliesTo: ['selection'] })).Data;
  // A prompt tag, for TagPrompt/Save (an update) and Delete.
  const promptTag = (await api(t.app, owner).postBody('/api/admin/TagPrompt/Save', { nameEn: 'Doc tag', nameZh: '文档标签' })).Data;
  // Two of the owner's prompts shared to the library: the first for Approve, Unpublish and Withdraw, the second for Reject.
  const shared1 = (await api(t.app, owner).postBody('/api/UserPrompt/Submit', { userQuickFunctionId: ownTool.userQuickFunctionId })).Data;
  const otherTool = (await api(t.app, owner).postBody('/api/QuickFunction/SaveUserQuickFunction', { name: 'Doc tool 2', template: 'Do {input}', appliesTo: ['input'] })).Data;
  const shared2 = (await api(t.app, owner).postBody('/api/UserPrompt/Submit', { userQuickFunctionId: otherTool.userQuickFunctionId })).Data;
  // A model type of its own (no model has it), for AiModelType/Save (an update), GetById and Delete and the type filters.
  const modelType = (await api(t.app, owner).postBody('/api/admin/AiModelType/Save', { aiModelTypeId: 'doc-type', nameEn: 'Doc type', nameZh: '文档类型' })).Data;
  // A share link of the seeded chat, for GetShare and RevokeShare.
  const shared = (await api(t.app, owner).postBody('/api/Chat/ShareSession', { chatSessionId: events[0]!.Data.ChatSessionId })).Data;
  // A picture of an account of its own (the sweep's own uploads replace and remove the caller's), for GetHeadImg.
  const pictured = await createUser(t.app);
  const picture = await formBody({}, { field: 'headImg', name: 'me.png', bytes: TINY_PNG });
  const headImg = JSON.parse((await answerOf({ method: 'POST', url: '/api/Account/AddUserForHeadImg', headers: { ...auth(pictured.token), 'content-type': picture.contentType }, payload: picture.payload })).body).Data.headImg;
  // An account of its own with its sign-up's verification link, for VerifyEmail.
  const verifiee = await createUser(t.app);
  const verifyMail = await smtp.waitFor((m) => m.to.includes(verifiee.email));
  const verifyToken = decodeURIComponent(/verifyEmail=([A-Za-z0-9_%-]+)/.exec(verifyMail.text)![1]!);
  // A group of the client error log, for Log/Resolve.
  await api(t.app).postBody('/api/Log/AddClientError', [{ message: 'Doc failure', surface: 'web' }]);
  const clientError = (await api(t.app, owner).getBody('/api/admin/Log/GetClientErrorList')).Data.list[0];
  // Sign in with another account: a link to confirm (the owner's verified e-mail), and a provider linked to the owner.
  oidc.setAccount('doc-owner', { email: owner.email, email_verified: true });
  oidc.setAccount('doc-linked', { email: 'doc-linked@example.test', email_verified: true });
  const toConfirm = await providerSignIn(new CookieJar(), appUrl, oidc, 'doc-owner', { providerKey: 'doc-oidc' });
  await providerSignIn(new CookieJar(), appUrl, oidc, 'doc-linked', { providerKey: 'doc-oidc', action: 'link', returnTo: '/setting/account' }, owner.token);
  const linked = (await api(t.app, owner).getBody('/api/User/GetUserProviderList')).Data.list;
  const inviteCode = (await api(t.app, owner).getBody('/api/InviteCode/GetMyInviteCode')).Data.inviteCode;
  // A running campaign with a points reward, for the MarketActivity calls (each caller claims it once); the owner's own invite code, for InviteCode/Disable.
  const campaign = (await api(t.app, owner).postBody('/api/admin/MarketActivity/Save', CAMPAIGN)).Data;
  const campaignPicture = JSON.parse((await answerOf({ method: 'POST', url: '/api/admin/MarketActivity/UploadImage', headers: { ...auth(owner.token), 'content-type': png.contentType }, payload: png.payload })).body).Data;
  await api(t.app, owner).getBody('/api/InviteCode/GetMyInviteCode');
  return {
    campaignId: campaign.campaignId,
    imageId: campaignPicture.imageId,
    ownerId: owner.userId,
    inviteCode,
    linkId: toConfirm.searchParams.get('providerLink'),
    userProviderId: linked.find((l: { email: string }) => l.email === 'doc-linked@example.test').id,
    verifyToken,
    clientErrorId: clientError.clientErrorId,
    headImgId: new URL(headImg, 'http://x').searchParams.get('headImgId'),
    shareId: shared.shareId,
    userQuickFunctionId: ownTool.userQuickFunctionId,
    quickFunctionId: 'qf-summarize',
    aiPrompWordId: 'rp-en-1',
    promptId: 'rp-en-1',
    promptSubmissionId: shared1.promptSubmissionId,
    rejectedSubmissionId: shared2.promptSubmissionId,
    tagPromptId: promptTag.tagPromptId,
    aiModelTypeId: modelType.aiModelTypeId,
    chatMediaId: upload.Data.chatMediaId,
    exp: link.searchParams.get('exp'),
    sig: link.searchParams.get('sig'),
    chatSessionId: events[0]!.Data.ChatSessionId,
    chatMessageId: events[0]!.Data.ChatMessageId,
    ids: [events[0]!.Data.ChatSessionId],
    aiModelId: 'doc-model',
    aiModelMapId: deployments.Data[0].aiModelMapId,
    settingKey: 'product_name',
    pluginId: 'read_url',
    userId: victim.userId,
    confirmEmail: victim.email,
    resetToken: new URL(resetLink).searchParams.get('reset'),
    tempKey: login.Data.tempKey,
    url: `${site.origin}/article`,
    timeZone: 'Asia/Shanghai',
    batchId,
    code: codes.list[0].code,
    vipPackageId: 'advanced-month',
    currency: 'usd',
    vipOrderId,
    couponId: coupon.couponId,
    memoryId: memory.memoryId,
    favouriteId: favourite.favouriteId,
    chatMessageIds: [events[0]!.Data.ChatMessageId],
    // Plain messages: the stream test above covers web search and plugins.
    chatMediaIds: [],
    pluginIds: [],
    webSearch: false,
  };
}

const CAMPAIGN = {
  titleEn: 'Doc campaign',
  titleZh: '文档活动',
  bodyEn: 'Claim 5 points',
  bodyZh: '领取 5 积分',
  startTime: new Date(Date.now() - 3_600_000).toISOString(),
  endTime: new Date(Date.now() + 86_400_000).toISOString(),
  rewardType: 'points',
  rewardPoints: 5,
};

/** A webhook delivery signed as Stripe signs them. */
const stripeDelivery = (type: string, object: unknown): Sent => {
  const { payload, signature } = stripe.deliver({ type, object });
  return { method: 'POST', url: WEBHOOK, headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature }, payload };
};

/** The owner subscribes through the webhook (so that the subscription and order routes have one); answers the order's id. */
async function subscribeOwner(): Promise<string> {
  const sub = { subscription: 'sub_doc', metadata: { userId: owner.userId, vipPackageId: 'advanced-month' } };
  await answerOf(stripeDelivery('checkout.session.completed', { id: 'cs_doc', object: 'checkout.session', mode: 'subscription', payment_status: 'paid', customer: 'cus_doc', client_reference_id: owner.userId, ...sub }));
  const start = Math.floor(Date.now() / 1000);
  const invoice = {
    id: 'in_doc',
    object: 'invoice',
    customer: 'cus_doc',
    amount_paid: 1999,
    currency: 'usd',
    parent: { type: 'subscription_details', subscription_details: sub },
    lines: { object: 'list', data: [{ id: 'il_doc', object: 'line_item', period: { start, end: start + 30 * 86_400 } }] },
  };
  await answerOf(stripeDelivery('invoice.paid', invoice));
  const orders = (await api(t.app, owner).getBody('/api/Vip/GetVipOrderList')).Data;
  return orders.list[0].vipOrderId;
}

/** What a route is sent besides the common values: its own credentials, addresses and ids. */
const perRoute = (known: Record<string, unknown> = {}): Record<string, Record<string, unknown>> => ({
  '/api/Account/AddUser': { email: 'openapi-doc@example.com' },
  '/api/Account/Login': { email: owner.email, password: owner.password },
  '/api/Chat/ProxyImage': { url: `${site.origin}/image.png` },
  // Text the seeded exchange holds, so the search has a hit to describe.
  '/api/Chat/SearchMessages': { q: 'Hello' },
  // The seeded answer from its start (it has ended: sent whole, then the last event and DONE).
  '/api/Chat/ResumeMessage': { offset: 0 },
  // A message after the chat's last exchange (a new version of one is a test of its own: chat-versions),
  // with the seeded answer attached (one attached text per question: no selection beside it).
  '/api/Chat/AddMessage': { versionOf: undefined, selection: undefined },
  // A new chat on the Responses model (its files: ResponsesUpload's own test).
  '/api/Chat/SendResponses': { aiModelId: 'doc-responses', chatSessionId: undefined, versionOf: undefined, responsesFileIds: [], chatParams: undefined, selection: undefined },
  '/api/ParamTools/SaveBySession': { temperature: 0.5, maxOutputTokens: 100, systemPrompt: 'Be brief.' },
  '/api/admin/ParamTools/Save': { bounds: null },
  '/api/admin/AiModel/Save': { aiModelId: 'doc-extra', modelMap: { isImage: false, fileTypes: [] }, typeIds: ['chat'] },
  // The configured images endpoint: doc-model is a chat model, which AddDraw refuses (10463).
  '/api/Chat/AddDraw': { aiModelId: undefined },
  '/api/admin/AiModelMap/GetAiModelListAll': { provider: 'openai', baseUrl: undefined, keyword: 'doc' },
  '/api/admin/AiModel/Delete': { aiModelId: 'doc-extra' },
  // A new deployment of the model, on the fake upstream as the first one.
  '/api/admin/AiModelMap/Save': { aiModelMapId: undefined, provider: 'openai', baseUrl: fake.baseUrl, upstreamModelId: 'doc-model' },
  '/api/admin/AiModel/Sort': { ids: ['doc-model'] },
  // The seeded deployment, as saved: a test call and its upstream's model list; an import from the fake.
  '/api/admin/AiModelMap/Test': { provider: undefined, baseUrl: undefined, apiKey: undefined, upstreamModelId: undefined, prompt: undefined },
  '/api/admin/AiModelMap/OpenAiModel': { provider: undefined, baseUrl: undefined, apiKey: undefined },
  '/api/admin/AiModel/SyncModelMap': { aiModelMapId: undefined, provider: 'openai-compatible', baseUrl: fake.baseUrl, apiKey: undefined, upstreamModelIds: ['doc-imported'], typeIds: undefined },
  '/api/admin/Vip/GetOrderList': { from: '2020-01-01', to: '2100-01-01' },
  '/api/admin/InviteCode/GetStatistics': { from: '2020-01-01', to: '2100-01-01' },
  // A year, in a zone other than UTC (the range may hold at most two years).
  '/api/admin/Statistic/GetDashboard': { from: '2026-01-01', to: '2026-12-31', timeZone: 'Europe/Paris' },
  '/api/admin/RedeemCode/GenerateBatch': { name: 'more', count: 2, points: 1, planDays: 0, planLevel: 0, usesPerCode: 1, expiresAt: undefined },
  '/api/admin/Vip/SavePackage': { vipPackageId: 'doc-extra', prices: { usd: 100 }, stripePriceIds: {} },
  '/api/admin/Vip/DeletePackage': { vipPackageId: 'doc-extra' },
  // A user without a subscription buys; the owner, who has one, would be refused (10409).
  '/api/Vip/CreateCheckout': { couponCode: undefined },
  // A percentage off: the common `currency` would ask for an amount off.
  '/api/admin/Coupons/Save': { couponId: undefined, code: 'DOC-COUPON', percentOff: 10, vipPackageIds: [], amountOff: undefined, currency: undefined, validFrom: undefined, validTo: undefined },
  // The price of one text (an estimate: the translation itself is tested in tests/server/translate.test.ts).
  '/api/System/TransText': { text: 'Hello <t0>world</t0>', segments: undefined, targetLanguage: 'fr', estimate: true, requestId: undefined },
  '/api/System/AddFeedback': { reasons: ['price', 'other'], otherText: 'Too slow', browser: 'chrome', version: '0.1.0', language: 'en' },
  '/api/admin/Feedback/GetList': { reason: 'price' },
  // Text the seeded answer holds, so the search finds it; a real edit of the saved answer.
  '/api/Save/GetList': { q: 'Hello' },
  '/api/Save/Update': { answer: '## Edited\n\nThe saved copy.', question: undefined },
  // A fact typed in settings (no source answer).
  '/api/Memory/Save': { sourceMessageId: undefined },
  // Quick functions: a root item (no group), the owner's own ids, a valid file to import, a new built-in.
  '/api/QuickFunction/SaveUserQuickFunction': { parentId: null, isGroup: false, tagIds: [] },
  '/api/QuickFunction/GroupUserQuickFunction': { parentId: null },
  '/api/QuickFunction/SortUserQuickFunction': { ids: [known.userQuickFunctionId] },
  '/api/QuickFunction/ImportUserQuickFunction': { version: 1, items: [{ key: 'a', name: 'Imported', template: 'Do {selection}', appliesTo: ['selection'] }] },
  // Submitted again (an edit: back to pending, so Approve, then Unpublish, succeed); the second one is rejected.
  '/api/UserPrompt/Submit': { tagIds: [] },
  '/api/admin/UserPrompt/Reject': { promptSubmissionId: known.rejectedSubmissionId, reason: 'Too vague' },
  '/api/admin/QuickFunction/Save': { quickFunctionId: undefined, parentId: null, isGroup: false, appliesTo: ['selection'], sort: undefined },
  '/api/admin/QuickFunction/Sort': { ids: ['qf-summarize', 'qf-explain'] },
  '/api/admin/AiPrompWord/Save': { aiPrompWordId: undefined, tagIds: [] },
  '/api/admin/TagPrompt/Save': { nameEn: 'Doc tag renamed', nameZh: '文档标签改名', sort: 5 },
  // The owner's own invite code (`code` is the redeem code's elsewhere); the words and colour of a real poster.
  '/api/Poster/GetPosterByCode': { code: known.inviteCode, lang: 'zh' },
  '/api/admin/Poster/Save': { headlineEn: 'Join me', headlineZh: '加入我', subtextEn: '', subtextZh: '', accentColor: '#336699', removePicture: false },
  '/api/admin/Poster/Preview': { lang: 'zh', headline: '草稿', subtext: undefined, accentColor: '#336699' },
  // A new campaign with a reward of points (the seeded one is claimed, ended and deleted by the sweep).
  '/api/admin/MarketActivity/Save': { ...CAMPAIGN, campaignId: undefined, imageUrl: 'https://img.example.com/a.png', planLevels: [], language: 'all', newUserDays: undefined, rewardCouponId: undefined, maxClaims: undefined },
  '/api/admin/User/GrantPoints': { amount: 5, reason: 'openapi', requestId: 'openapi-grant' },
  '/api/admin/User/ExtendPlan': { level: 1, days: 1, requestId: 'openapi-extend' },
  '/api/admin/User/SetRole': { role: 'user' },
  '/api/admin/User/GetList': { keyword: 'example', email: 'example', role: 'user', planLevel: 0, status: 'active', sort: 'lastActive', order: 'desc' },
  '/api/admin/AuditLog/GetList': { from: '2020-01-01', to: '2100-01-01', actorId: undefined, actorEmail: undefined, action: undefined, targetType: undefined, targetId: undefined },
  '/api/admin/Records/GetRequestTimes': { from: '2020-01-01', to: '2100-01-01', path: 'api', userId: undefined, minDurationMs: 0 },
  '/api/admin/Records/GetPageViews': { from: '2020-01-01', to: '2100-01-01', url: undefined, userId: undefined },
  '/api/Account/ResetPassword': { token: known.resetToken, password: 'openapi new password' },
  '/api/Account/VerifyEmail': { token: known.verifyToken },
  // The sweep's accounts share the helper's password; each call (last but the logouts) changes its caller's.
  '/api/Account/UpdateUserPassword': { oldPassword: owner.password, newPassword: 'openapi changed password' },
  // The user's call sets the number (the admin's then answers 10409: it is taken); the look-up finds it.
  '/api/Account/UpdateUserPhone': { phone: '+1 555 000 1111' },
  // Sign in with another account: the provider of the environment, the seeded link request and link.
  '/api/Account/GetProviderByAction': { providerKey: 'doc-oidc', action: 'login', returnTo: '/login' },
  '/api/User/AutoLinkWeb': { linkId: known.linkId, password: undefined },
  '/api/User/GetUserProviderById': { id: known.userProviderId },
  '/api/User/DeleteUserProvider': { id: known.userProviderId },
  '/api/admin/SignInProvider/Save': { providerKey: 'doc-console', kind: 'oidc', displayName: 'Doc console', issuer: oidc.issuer, tenant: undefined, clientId: 'doc', clientSecret: 'doc-secret', enabled: true, sortOrder: 0 },
  '/api/admin/SignInProvider/Delete': { providerKey: 'doc-console' },
  '/api/Account/GetUserByPhone': { phone: '+15550001111' },
  '/api/Account/GetUserByEmail': { email: owner.email },
  // A built-in string, and an override that keeps its placeholders (it has none).
  '/api/admin/Language/GetByKey': { key: 'chat.notLoginTip' },
  '/api/admin/Language/Save': { key: 'chat.notLoginTip', value: 'Please sign in' },
  '/api/admin/Language/Reset': { key: 'chat.notLoginTip' },
  '/api/admin/UserNotification/Broadcast': { audience: 'all', title: 'Hello', body: 'Welcome', link: '/setting', level: undefined, userId: undefined, requestId: 'openapi-broadcast' },
});

/** The requests of one route: signed out, as a user, with bad input (as an admin), then as an admin. */
async function requestsFor(route: RouteTableEntry, known: Record<string, unknown>, user: TestUser): Promise<[string, Sent][]> {
  const valid = sampleRequest(doc, route, { ...known, ...perRoute(known)[route.url] });
  const base = { method: route.method, url: valid.url };
  const asSent = async (headers: Record<string, string>): Promise<Sent> => {
    if (route.url === '/api/Chat/ResponsesUpload') {
      const form = await formBody({ aiModelId: 'doc-responses' }, { field: 'file', name: 'dot.png', bytes: TINY_PNG });
      return { ...base, headers: { ...headers, 'content-type': form.contentType }, payload: form.payload };
    }
    if (route.url === '/api/System/DocumentText') {
      const form = await formBody({}, { field: 'file', name: 'notes.docx', bytes: makeDocx(['Hello']) });
      return { ...base, headers: { ...headers, 'content-type': form.contentType }, payload: form.payload };
    }
    if (UPLOAD_ROUTES.has(route.url)) {
      const form = await formBody({ mediaType: 'image' }, { field: 'imageFile', name: 'dot.png', bytes: TINY_PNG });
      return { ...base, headers: { ...headers, 'content-type': form.contentType }, payload: form.payload };
    }
    return valid.body === undefined ? { ...base, headers } : { ...base, headers: { ...headers, ...json({}) }, ...json(valid.body) };
  };
  const op = operationOf(doc, route);
  const badQuery = new URLSearchParams((op?.parameters ?? []).map((p) => [p.name, 'x'.repeat(5000)]));
  const bad: [string, Sent][] =
    route.method === 'POST'
      ? [
          ['invalid JSON', { ...base, url: route.url, headers: headersFor(owner, { headers: { 'content-type': 'application/json' } }), payload: '{"a":' }],
          ['wrong content type', { ...base, url: route.url, headers: headersFor(owner, { headers: { 'content-type': 'application/xml' } }), payload: '<a/>' }],
        ]
      : [['bad query', { ...base, url: `${route.url}?${badQuery.size ? badQuery : 'page=-1'}`, headers: auth(owner.token) }]];
  // Stripe's webhook is signed, not signed in: its success is a genuine delivery (of an event type it ignores).
  const last: [string, Sent] = route.url === WEBHOOK ? ['signed by Stripe', stripeDelivery('customer.created', { id: 'cus_new', object: 'customer' })] : ['as an admin', await asSent(auth(owner.token))];
  if (route.url === LOGOUT_ALL) return [['signed out', await asSent({})], ...bad, ['as a user', await asSent(auth((await createUser(t.app)).token))]];
  return [['signed out', await asSent({})], ['as a user', await asSent(auth(user.token))], ...bad, last];
}

describe('the API reference: every route of the table', () => {
  it('answers every route of the table, signed out, as a user, as an admin and with bad input, as the document says', { timeout: 120_000 }, async () => {
    const known = await seed();
    const user = await createUser(t.app);
    const problems: string[] = [];
    const succeeded = new Set<string>();
    for (const route of inCallOrder(t.app.routeTable)) {
      for (const [label, sent] of await requestsFor(route, known, user)) {
        const answer = await answerOf(sent);
        problems.push(...check(route, answer).map((p) => `${label}: ${p}`));
        const isJson = answer.contentType.startsWith('application/json');
        if (answer.status === 200 && (!isJson || JSON.parse(answer.body).Code === Codes.Success)) succeeded.add(`${route.method} ${route.url}`);
      }
    }
    expect(problems).toEqual([]);
    // Every route answered success at least once, so its success schema was checked too.
    expect(t.app.routeTable.map((r) => `${r.method} ${r.url}`).filter((r) => !succeeded.has(r))).toEqual([]);
  });
});

describe('the API reference, when the server fails or shuts down', () => {
  /** The sample request of each route, sent by `call`: every answer must be one the document declares. */
  const sweep = async (doc: OpenApi, table: RouteTableEntry[], call: (route: RouteTableEntry, sent: { url: string; body?: unknown }) => Promise<Answer>) => {
    const check = answerChecker(doc);
    const problems: string[] = [];
    const statuses = new Set<number>();
    for (const route of table) {
      const answer = await call(route, sampleRequest(doc, route));
      statuses.add(answer.status);
      problems.push(...check(route, answer));
    }
    return { problems, statuses };
  };

  it('declares the server fault (HTTP 500) the routes answer when the database fails', async () => {
    const t = await createTestApp();
    const doc = await fetchApiDocument(t.app);
    const { ctx } = t.app;
    const db = ctx.db;
    const user = await createUser(t.app);
    // Every statement fails from here on, as with a database that went away.
    ctx.db = new Proxy(db, { get: () => { throw new Error('the database is unreachable'); } });
    try {
      const { problems, statuses } = await sweep(doc, t.app.routeTable, async (route, sent) => {
        const as = api(t.app, user);
        return answerFrom(route.method === 'GET' ? await as.get(sent.url) : await as.post(sent.url, sent.body));
      });
      expect(problems).toEqual([]);
      expect(statuses).toContain(500);
    } finally {
      ctx.db = db;
      await t.close();
    }
  });

  it('declares the framework’s own 503 that every route answers while the server shuts down', async () => {
    const t = await createTestApp();
    const doc = await fetchApiDocument(t.app);
    await t.close();
    // Once closing, Fastify's router answers 503 itself (return503OnClosing) to a request still
    // arriving on an open connection; its request handler, served here, answers as it would.
    const server = createServer(t.app.routing);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const { problems, statuses } = await sweep(doc, t.app.routeTable, async (route, sent) => {
        const res = await fetch(`${origin}${sent.url}`, {
          method: route.method,
          headers: { 'content-type': 'application/json' },
          ...(sent.body === undefined ? {} : { body: JSON.stringify(sent.body) }),
        });
        return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.text() };
      });
      expect(problems).toEqual([]);
      expect([...statuses]).toEqual([503]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
