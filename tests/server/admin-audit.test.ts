import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Codes } from '../../shared/contracts/envelope.ts';
import { addRoute, type RouteTableEntry } from '../../server/http/route.ts';
import { isSecretKey, redact, REDACTED } from '../../server/services/admin/audit.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.ts';
import { api } from '../helpers/api.ts';
import { createTestApp, fakeOpenAIEnv, type TestApp } from '../helpers/app.ts';
import { createAdmin, createUser, type TestUser } from '../helpers/users.ts';

/**
 * The admin audit log: every admin write must declare how it is audited (checked on the route table
 * and at registration), a successful write leaves one row with the target before and after, a
 * refused or failed one none, secrets never reach the log, and only admins can read it.
 */

describe('the admin audit log', () => {
  let fake: FakeOpenAI;
  let t: TestApp;
  let admin: TestUser;
  let user: TestUser;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await createTestApp({ ...fakeOpenAIEnv(fake, 'audit-model'), AUTH_RATE_LIMIT: '1000' });
    admin = await createAdmin(t.app);
    user = await createUser(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const auditList = async (query: string) => {
    const res = await api(t.app, admin).getBody(`/api/admin/AuditLog/GetList?${query}`);
    expect(res.Code).toBe(Codes.Success);
    return res.Data as { total: number; list: { action: string; targetType: string; targetId: string | null; before: unknown; after: unknown; actorId: string; actorEmail: string; createTime: string }[] };
  };
  const rowCount = async () => Number((await t.database.db.execute<{ n: number }>(sql`select count(*)::int as n from admin_audit_log`)).rows[0].n);

  it('requires an audit spec of every admin POST route in the table', () => {
    const adminWrites = t.app.routeTable.filter((r: RouteTableEntry) => r.auth === 'admin' && r.method === 'POST');
    expect(adminWrites.length).toBeGreaterThan(20);
    expect(adminWrites.filter((r) => !r.audit).map((r) => r.url)).toEqual([]);
    // Reads are not audited.
    expect(t.app.routeTable.filter((r) => r.method === 'GET' && r.audit)).toEqual([]);
  });

  it('names every audited action and target type in both of the console\'s languages', () => {
    const audited = t.app.routeTable.filter((r: RouteTableEntry) => r.audit);
    expect(audited.length).toBeGreaterThan(20);
    for (const language of ['en', 'zh']) {
      const { adminAudit } = JSON.parse(readFileSync(join(import.meta.dirname, `../../locales/features/admin-audit.${language}.json`), 'utf8')) as {
        adminAudit: { actions: Record<string, Record<string, string>>; targets: Record<string, string> };
      };
      const unnamed = audited.filter((r) => {
        const [family, name] = r.url.replace(/^\/api\/admin\//, '').split('/');
        return !adminAudit.actions[family!]?.[name!] || !adminAudit.targets[r.audit!];
      });
      expect(unnamed.map((r) => `${language}: ${r.url} (${r.audit})`)).toEqual([]);
    }
  });

  it('refuses to register an admin POST route without one', async () => {
    const app = Fastify();
    app.decorate('routeTable', [] as RouteTableEntry[]);
    const spec = { method: 'POST', url: '/api/admin/Thing/Do', auth: 'admin', summary: 'x', body: z.object({}), handler: async () => null };
    // @ts-expect-error: the type requires the audit spec too
    expect(() => addRoute(app, spec)).toThrow(/audit/);
    expect(() => addRoute(app, { ...spec, audit: { target: 'thing', id: () => undefined } } as unknown as Parameters<typeof addRoute>[1])).not.toThrow();
    await app.close();
  });

  it('has no route that edits or deletes audit rows', () => {
    expect(t.app.routeTable.filter((r) => r.url.includes('AuditLog')).map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/admin/AuditLog/GetList']);
  });

  it('records a grant with the account before and after, the actor and the action', async () => {
    const requestId = randomUUID();
    const res = await api(t.app, admin).postBody('/api/admin/User/GrantPoints', { userId: user.userId, amount: 50, reason: 'welcome', requestId });
    expect(res.Code).toBe(Codes.Success);
    const { list } = await auditList(`action=User/GrantPoints&targetId=${user.userId}`);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      actorId: admin.userId,
      actorEmail: admin.email,
      targetType: 'user',
      targetId: user.userId,
      before: { userId: user.userId, balance: 0 },
      after: { userId: user.userId, balance: 50 },
    });
    // The same request again changes nothing, but it was a successful call: recorded as such.
    await api(t.app, admin).postBody('/api/admin/User/GrantPoints', { userId: user.userId, amount: 50, reason: 'welcome', requestId });
    const again = await auditList(`action=User/GrantPoints&targetId=${user.userId}`);
    expect(again.list[0]).toMatchObject({ before: { balance: 50 }, after: { balance: 50 } });
  });

  it('records creates (the id known only after) and deletes (nothing after)', async () => {
    const saved = await api(t.app, admin).postBody('/api/admin/Vip/SavePackage', { vipPackageId: `audit-${randomUUID().slice(0, 8)}`, level: 1, period: 'month', name: 'Audit plan', prices: { usd: 500 } });
    expect(saved.Code, saved.Msg).toBe(Codes.Success);
    const id = saved.Data.vipPackageId as string;
    const created = await auditList(`targetType=vipPackage&targetId=${id}`);
    expect(created.list).toHaveLength(1);
    expect(created.list[0]).toMatchObject({ action: 'Vip/SavePackage', before: null, after: { id } });

    expect((await api(t.app, admin).postBody('/api/admin/Vip/DeletePackage', { vipPackageId: id })).Code).toBe(Codes.Success);
    const deleted = await auditList(`action=Vip/DeletePackage&targetId=${id}`);
    expect(deleted.list[0].before).toMatchObject({ id });
  });

  it('writes nothing when the write was refused or failed', async () => {
    const before = await rowCount();
    // A deduction larger than the balance: refused with its Code.
    const refused = await api(t.app, admin).postBody('/api/admin/User/GrantPoints', { userId: user.userId, amount: -1_000_000, reason: 'too much', requestId: randomUUID() });
    expect(refused.Code).toBe(Codes.BadRequest);
    // Bad input, an unknown account, a plain user, nobody signed in.
    expect((await api(t.app, admin).postBody('/api/admin/User/GrantPoints', { userId: user.userId, amount: 'x' })).Code).toBe(Codes.BadRequest);
    expect((await api(t.app, admin).postBody('/api/admin/User/GrantPoints', { userId: 'nobody', amount: 1, reason: 'r', requestId: randomUUID() })).Code).toBe(Codes.NotFound);
    expect((await api(t.app, user).postBody('/api/admin/User/GrantPoints', { userId: user.userId, amount: 1, reason: 'r', requestId: randomUUID() })).Code).toBe(Codes.Forbidden);
    expect((await api(t.app, 'not-a-token').postBody('/api/admin/User/GrantPoints', { userId: user.userId, amount: 1, reason: 'r', requestId: randomUUID() })).Code).toBe(Codes.NotLoggedIn);
    expect(await rowCount()).toBe(before);
  });

  it('never stores a key: a deployment saved with one is logged without it', async () => {
    const secret = `sk-audit-${randomUUID()}`;
    const saved = await api(t.app, admin).postBody('/api/admin/AiModelMap/Save', { aiModelId: 'audit-model', provider: 'openai', baseUrl: fake.baseUrl, upstreamModelId: 'audit-model', apiKey: secret });
    expect(saved.Code, saved.Msg).toBe(Codes.Success);
    const { list } = await auditList(`action=AiModelMap/Save&targetId=${saved.Data.aiModelMapId}`);
    expect(list).toHaveLength(1);
    expect(list[0].after).toMatchObject({ aiModelMapId: saved.Data.aiModelMapId, hasApiKey: true });
    const everything = await t.database.db.execute(sql`select before::text || after::text as t from admin_audit_log`);
    expect(JSON.stringify(everything.rows)).not.toContain(secret);
  });

  it('redacts fields named like secrets at any depth, and keeps token counts and flags', () => {
    const stored = redact({
      apiKey: 'sk-1',
      nested: [{ password: 'p', deeper: { clientSecret: 's', accessToken: 't', api_key: 'k' } }],
      maxTokens: 100,
      inputTokens: 3,
      hasApiKey: true,
      text: 'a\u0000b\ud800',
    });
    expect(stored).toEqual({
      apiKey: REDACTED,
      nested: [{ password: REDACTED, deeper: { clientSecret: REDACTED, accessToken: REDACTED, api_key: REDACTED } }],
      maxTokens: 100,
      inputTokens: 3,
      hasApiKey: true,
      text: 'ab\ufffd',
    });
    expect(['token', 'tokenHash', 'resetToken', 'SECRET_KEY', 'passwordHash'].every(isSecretKey)).toBe(true);
    expect(['tokens', 'outputTokens', 'tokenCount', 'name'].some(isSecretKey)).toBe(false);
  });

  it('records a request body (without load) with its secrets redacted', async () => {
    // A broadcast has no single target to load: its body is what is recorded.
    const requestId = `audit-${randomUUID()}`;
    const res = await api(t.app, admin).postBody('/api/admin/UserNotification/Broadcast', { audience: 'user', userId: user.userId, title: 'Hi', body: 'There', requestId });
    expect(res.Code, res.Msg).toBe(Codes.Success);
    const { list } = await auditList(`action=UserNotification/Broadcast&targetId=${user.userId}`);
    expect(list[0]).toMatchObject({ targetType: 'notification', before: null, after: { title: 'Hi', requestId } });
  });

  it('filters by actor, target, action and date range, newest first', async () => {
    const other = await createAdmin(t.app);
    expect((await api(t.app, other).postBody('/api/admin/User/Reopen', { userId: user.userId })).Code).toBe(Codes.Success);
    const byActor = await auditList(`actorId=${other.userId}`);
    expect(byActor.list.map((r) => r.action)).toEqual(['User/Reopen']);
    const byEmail = await auditList(`actorEmail=${encodeURIComponent(other.email.slice(0, 12))}`);
    expect(byEmail.list.every((r) => r.actorId === other.userId)).toBe(true);
    const all = await auditList('count=100');
    const times = all.list.map((r) => r.createTime);
    expect([...times].sort().reverse()).toEqual(times);
    const today = new Date().toISOString().slice(0, 10);
    expect((await auditList(`from=${today}&to=${today}&count=100`)).total).toBe(all.total);
    expect((await auditList('to=2000-01-01')).total).toBe(0);
    expect((await auditList(`from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).total).toBe(0);
  });

  it('refuses readers who are not admins, and bad filters with a clear Code', async () => {
    expect((await api(t.app, user).getBody('/api/admin/AuditLog/GetList')).Code).toBe(Codes.Forbidden);
    expect((await api(t.app, 'nope').getBody('/api/admin/AuditLog/GetList')).Code).toBe(Codes.NotLoggedIn);
    for (const bad of ['from=yesterday', 'page=0', 'count=1000', `action=${'x'.repeat(500)}`, 'targetType=%00', 'actorId=']) {
      const res = await api(t.app, admin).getBody(`/api/admin/AuditLog/GetList?${bad}`);
      expect(res.Code, bad).toBe(Codes.BadRequest);
      expect(res.Msg.length, bad).toBeGreaterThan(5);
    }
  });
});
