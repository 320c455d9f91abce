import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { http } from '../helpers/api.ts';
import { createPostgresDatabase } from '../helpers/app.ts';
import { readStream, textOf } from '../helpers/chat.ts';
import { freePort } from '../helpers/ports.ts';
import { callApi, logInThrough, signUpThrough, startServerProcess, stopServerProcess, type ServerProcess } from '../helpers/server-process.ts';

/**
 * Two real servers (server/main.ts processes) on one PostgreSQL database and one Redis, behind a
 * real nginx running docs/nginx.conf.example: what one instance does, the other knows.
 */

const NGINX = '/usr/sbin/nginx';
const exampleConfig = fileURLToPath(new URL('../../docs/nginx.conf.example', import.meta.url));
const missing = [
  !process.env.TEST_DATABASE_URL && 'TEST_DATABASE_URL',
  !process.env.TEST_REDIS_URL && 'TEST_REDIS_URL',
  !existsSync(NGINX) && NGINX,
].filter(Boolean);
if (missing.length) console.warn(`multi-instance.test.ts skipped: needs ${missing.join(', ')} (see .ci/run)`);

const ADMIN = { email: 'admin@example.test', password: 'correct horse battery' };
const SECRET_KEY = 'multi-instance-test-secret-key-0123456789abcdef';
/** A documentation address of its own per run, so runs sharing the Redis do not share rate-limit counters. */
const someAddress = () => `198.18.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 254) + 1}`;
const from = (address: string) => ({ 'x-forwarded-for': address });

type Nginx = { child: ChildProcess; origin: string; dir: string; exited: Promise<unknown> };

/**
 * nginx with the documented server block, only the ports changed, in a main configuration of the
 * test's own (pid file, logs and temporary files in a temporary folder; X-Upstream names the
 * instance that answered, so the test knows where a stream runs).
 */
async function startNginx(ports: number[]): Promise<Nginx> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tandem-nginx-'));
  const port = await freePort();
  let upstreams = 0;
  const site = readFileSync(exampleConfig, 'utf8')
    .replace(/server 127\.0\.0\.1:\d+/g, () => `server 127.0.0.1:${ports[upstreams++]}`)
    .replace(/listen 80;/, `listen 127.0.0.1:${port};`);
  expect(upstreams).toBe(ports.length);
  writeFileSync(path.join(dir, 'tandem.conf'), site);
  for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, t));
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
    access_log ${dir}/access.log;
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    add_header X-Upstream $upstream_addr always;
    include ${dir}/tandem.conf;
}
`,
  );
  const child = spawn(NGINX, ['-p', dir, '-c', `${dir}/nginx.conf`, '-e', `${dir}/error.log`, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const origin = `http://127.0.0.1:${port}`;
  await vi.waitUntil(
    async () => {
      if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${readFileSync(`${dir}/error.log`, 'utf8')}`);
      return fetch(`${origin}/api/health`).then((r) => r.ok, () => false);
    },
    { timeout: 10_000, interval: 50 },
  );
  return { child, origin, dir, exited };
}

it('shows in docs/deployment.md the very nginx configuration this test runs', () => {
  const doc = readFileSync(fileURLToPath(new URL('../../docs/deployment.md', import.meta.url)), 'utf8');
  expect(doc).toContain(`\`\`\`nginx\n${readFileSync(exampleConfig, 'utf8').trim()}\n\`\`\``);
});

(missing.length ? describe.skip : describe)('two instances behind nginx, on one PostgreSQL and one Redis', () => {
  let fake: FakeOpenAI;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;
  let nginx: Nginx;
  let adminToken: string;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    database = await createPostgresDatabase();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: process.env.TEST_REDIS_URL!,
      SECRET_KEY,
      TRUST_PROXY: '127.0.0.1',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: fake.baseUrl,
      OPENAI_MODELS: 'slow-model,other-model',
      OLLAMA_URL: 'http://127.0.0.1:9',
      FREE_DAILY_POINTS: '100',
      AUTH_RATE_LIMIT: '6',
      SHUTDOWN_GRACE_SECONDS: '0',
    };
    // One after the other: the first migrates and creates the administrator.
    a = await startServerProcess(env);
    b = await startServerProcess(env);
    nginx = await startNginx([a.port, b.port]);
    adminToken = await logInThrough(a.origin, ADMIN.email, from(someAddress()));
  }, 120_000);
  afterAll(async () => {
    nginx?.child.kill('SIGQUIT');
    await nginx?.exited;
    if (nginx) rmSync(nginx.dir, { recursive: true, force: true });
    await Promise.all([stopServerProcess(a, 'SIGTERM'), stopServerProcess(b, 'SIGTERM')]);
    await fake?.close();
    await database?.drop();
  });

  it('balances requests over both instances', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${nginx.origin}/api/health`);
      expect(res.status).toBe(200);
      seen.add(res.headers.get('x-upstream')!);
    }
    expect(seen).toEqual(new Set([`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`]));
  });

  it('logs in through A, chats through B and through the proxy, the answer streaming chunk by chunk', { timeout: 60_000 }, async () => {
    const address = someAddress();
    await callApi(a.origin, 'POST', '/api/Account/AddUser', { email: 'chat@example.test', password: ADMIN.password }, undefined, from(address));
    const token = await logInThrough(a.origin, 'chat@example.test', from(address));

    fake.script('slow-model', { chunks: ['one ', 'two ', 'three'] });
    const direct = await http(b.origin, token).post('/api/Chat/AddMessage', { aiModelId: 'slow-model', inputMessage: 'hello B' });
    expect(textOf((await readStream(direct, () => undefined)).events)).toBe('one two three');

    // Through nginx: 40 pieces 50 ms apart (2 s). The first piece must reach the client while the
    // upstream is still sending: a buffering proxy would hold it until the end.
    fake.script('slow-model', { chunks: Array.from({ length: 40 }, (_, i) => `p${i} `), delayMs: 50 });
    const started = Date.now();
    const res = await http(nginx.origin, token).post(
      '/api/Chat/AddMessage',
      { aiModelId: 'slow-model', inputMessage: 'through the proxy' },
      // As a browser asks: a proxy compressing the stream would hold it back.
      { headers: { 'accept-encoding': 'gzip, deflate, br' } },
    );
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    let firstAt = 0;
    const { events, done } = await readStream(res, (e) => {
      if (!firstAt && e.Data.OutputMessage) firstAt = Date.now();
    });
    const endedAt = Date.now();
    expect(done).toBe(true);
    expect(textOf(events)).toBe(Array.from({ length: 40 }, (_, i) => `p${i} `).join(''));
    expect(firstAt - started).toBeLessThan(1000);
    expect(endedAt - firstAt).toBeGreaterThan(1000);
  });

  it('stops, through one instance, a stream that runs in the other', { timeout: 60_000 }, async () => {
    const address = someAddress();
    const token = await signUpThrough(nginx.origin, 'stopper@example.test', from(address));
    fake.script('slow-model', { chunks: Array.from({ length: 200 }, (_, i) => `s${i} `), delayMs: 25 });
    const res = await http(nginx.origin, token).post('/api/Chat/AddMessage', { aiModelId: 'slow-model', inputMessage: 'a long answer' });
    const runsOn = res.headers.get('x-upstream');
    const other = runsOn === `127.0.0.1:${a.port}` ? b : a;
    expect([`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`]).toContain(runsOn);
    let stopped = false;
    const { events, done } = await readStream(res, async (e) => {
      if (stopped || !e.Data.OutputMessage) return;
      stopped = true;
      await callApi(other.origin, 'POST', '/api/Chat/StopMessage', { chatMessageId: e.Data.ChatMessageId }, token);
    });
    expect(done).toBe(true);
    expect(events.at(-1)!.Data.FinishReason).toBe('user-stopped');
    expect(textOf(events).split(' ').length).toBeLessThan(200);
  });

  it('shares rate limits: the limit counts requests through both instances and the proxy, per client address', async () => {
    const address = someAddress();
    const tryLogin = async (origin: string, client: string) => {
      const res = await fetch(`${origin}/api/Account/Login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json-patch+json', ...from(client) },
        body: JSON.stringify({ email: 'nobody@example.test', password: 'not the password' }),
      });
      return (await res.json()).Code as number;
    };
    // AUTH_RATE_LIMIT=6: six attempts spread over A, B and nginx are counted together.
    for (const origin of [a.origin, b.origin, nginx.origin, a.origin, b.origin, nginx.origin]) {
      expect(await tryLogin(origin, address)).not.toBe(10429);
    }
    for (const origin of [a.origin, b.origin, nginx.origin]) expect(await tryLogin(origin, address)).toBe(10429);
    // Keyed on the client's address as nginx passed it on (TRUST_PROXY), not on nginx's own.
    expect(await tryLogin(nginx.origin, someAddress())).not.toBe(10429);
  });

  it('applies on B, within a second, settings and model changes made on A', async () => {
    const productName = `Tandem ${Date.now()}`;
    // B has read (and may have cached) both before the change.
    expect(await callApi(b.origin, 'GET', '/api/System/GetSettingValueByKey?settingKey=product_name')).not.toBe(productName);
    const modelsOnB = async () => ((await callApi(b.origin, 'GET', '/api/Chat/GetModelListAll')) as { aiModelId: string }[]).map((m) => m.aiModelId);
    expect(await modelsOnB()).toContain('other-model');

    const changedAt = Date.now();
    await callApi(a.origin, 'POST', '/api/admin/System/SaveSetting', { settingKey: 'product_name', settingValue: productName }, adminToken);
    await callApi(a.origin, 'POST', '/api/admin/AiModel/Online', { aiModelId: 'other-model', online: false }, adminToken);
    await vi.waitUntil(
      async () =>
        (await callApi(b.origin, 'GET', '/api/System/GetSettingValueByKey?settingKey=product_name')) === productName &&
        !(await modelsOnB()).includes('other-model'),
      { timeout: 1000, interval: 20 },
    );
    expect(Date.now() - changedAt).toBeLessThan(1000);
  });

  it('answers the health check through the proxy with the database and Redis reachable', async () => {
    const res = await fetch(`${nginx.origin}/api/health`);
    expect(await res.json()).toMatchObject({ Code: 10000, Data: { status: 'ok', database: 'ok', bus: 'ok', busKind: 'redis' } });
  });
});
