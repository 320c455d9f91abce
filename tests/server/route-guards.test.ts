import { getTableName, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../server/db/schema.ts';
import type { RouteTableEntry } from '../../server/http/route.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { fetchApiDocument, sampleRequest, type OpenApi } from '../helpers/openapi.ts';
import { auth, createAdmin, createUser } from '../helpers/users.ts';

/**
 * Every guarded route of the route table, whoever registered it: a route added later is covered
 * without editing this file. The requests are built from the API reference (tests/helpers/openapi.ts):
 * plausible valid values, so that a guard that let a call through would have something to change;
 * the sweep below checks that these bodies do change data when an admin sends them.
 */

/** A digest of every table but the tokens (which authentication itself touches). */
async function fingerprint(app: FastifyInstance): Promise<Record<string, string>> {
  const tables = Object.values(schema as Record<string, unknown>).filter((v): v is PgTable => v instanceof PgTable);
  const out: Record<string, string> = {};
  for (const table of tables) {
    const name = getTableName(table);
    if (name === 'auth_tokens') continue;
    const result = (await app.ctx.db.execute(
      sql`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from ${table} t`,
    )) as unknown as { rows: { h: string }[] };
    out[name] = result.rows[0]!.h;
  }
  return out;
}

describe('route guards, enumerated from the route table', () => {
  let t: TestApp;
  let table: RouteTableEntry[];
  let guarded: RouteTableEntry[];
  let adminOnly: RouteTableEntry[];
  let doc: OpenApi;

  /** Sends the route's request with these headers as they are (no token, a garbage one, another scheme). */
  const call = async (route: RouteTableEntry, headers: Record<string, string>, request = { url: route.url, body: route.method === 'POST' ? {} : undefined }) => {
    const res = route.method === 'GET' ? await api(t.app).get(request.url, { headers }) : await api(t.app).post(request.url, request.body, { headers });
    return { status: res.statusCode, body: res.json() as { Code: number; Msg: string; Data: unknown } };
  };

  const expectCode = async (routes: RouteTableEntry[], headers: Record<string, string>, code: number) => {
    const wrong: string[] = [];
    for (const route of routes) {
      const res = await call(route, headers, sampleRequest(doc, route));
      if (res.status !== 200 || res.body.Code !== code || res.body.Data !== null || !res.body.Msg) {
        wrong.push(`${route.method} ${route.url} -> HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
  };

  beforeAll(async () => {
    t = await createTestApp();
    table = t.app.routeTable;
    guarded = table.filter((r) => r.auth === 'user' || r.auth === 'admin');
    adminOnly = table.filter((r) => r.auth === 'admin');
    doc = await fetchApiDocument(t.app);
  });
  afterAll(() => t.close());

  it('has a non-trivial table to check', () => {
    expect(table.length).toBeGreaterThanOrEqual(15);
    expect(guarded.length).toBeGreaterThanOrEqual(8);
    expect(adminOnly.length).toBeGreaterThanOrEqual(4);
    expect(table.filter((r) => r.auth === 'public').length).toBeGreaterThanOrEqual(1);
    const keys = table.map((r) => `${r.method} ${r.url}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('guards every route under /api/admin/ as admin, and nothing else is admin-only by URL', () => {
    const unguarded = table.filter((r) => r.url.startsWith('/api/admin/') && r.auth !== 'admin');
    expect(unguarded).toEqual([]);
    expect(table.every((r) => r.url.startsWith('/api/'))).toBe(true);
  });

  it('answers 10402 on every guarded route without a token', async () => {
    await expectCode(guarded, {}, 10402);
  });

  it('answers 10402 on every guarded route with a garbage or malformed token', async () => {
    await expectCode(guarded, auth('not-a-real-token'), 10402);
    await expectCode(guarded, { authorization: 'Basic dXNlcjpwYXNz' }, 10402);
    await expectCode(guarded, auth('x'.repeat(5000)), 10402);
  });

  it('answers 10402 on every guarded route with a revoked token', async ({ skip }) => {
    const logout = table.find((r) => r.url === '/api/User/Logout');
    if (!logout) return skip('no logout route registered yet');
    const { token } = await createUser(t.app);
    const res = await call(logout, auth(token));
    expect(res.body.Code).toBe(10000);
    await expectCode(guarded, auth(token), 10402);
  });

  it('answers 10403 to a normal user on every admin route and changes nothing; an admin with the same calls does', async () => {
    const { token } = await createUser(t.app);
    const before = await fingerprint(t.app);
    await expectCode(adminOnly, auth(token), 10403);
    expect(await fingerprint(t.app)).toEqual(before);

    // The same requests from an admin go through and change data: the bodies above were not inert.
    const { token: adminToken } = await createAdmin(t.app);
    const changed: string[] = [];
    for (const route of adminOnly) {
      const before = await fingerprint(t.app);
      const res = await call(route, auth(adminToken), sampleRequest(doc, route));
      expect(res.status, route.url).toBe(200);
      if (JSON.stringify(await fingerprint(t.app)) !== JSON.stringify(before)) changed.push(route.url);
    }
    expect(changed.length).toBeGreaterThanOrEqual(1);
  });

  it('lists every route of the table in the OpenAPI document, bearer-secured unless public', () => {
    const missing: string[] = [];
    const wrongSecurity: string[] = [];
    for (const route of table) {
      const op = doc.paths[route.url]?.[route.method.toLowerCase()];
      if (!op) {
        missing.push(`${route.method} ${route.url}`);
        continue;
      }
      if (!!op.security?.length !== (route.auth !== 'public')) wrongSecurity.push(`${route.method} ${route.url}`);
    }
    expect(missing).toEqual([]);
    expect(wrongSecurity).toEqual([]);
  });
});
