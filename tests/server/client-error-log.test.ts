import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { clientErrors } from '../../server/db/schema/language-log.ts';
import { sweepClientErrors } from '../../server/services/system/client-error-log.ts';
import type { ClientErrorGroup } from '../../shared/contracts/client-error-log.ts';
import { useTestAppWithAdmin } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { addressesUnder } from '../helpers/users.ts';

const { t, admin } = useTestAppWithAdmin({ AUTH_RATE_LIMIT: '1000' });
const address = addressesUnder('10.77');

const report = (reports: unknown[], remoteAddress = address()) => api(t.app).postBody('/api/Log/AddClientError', reports, { remoteAddress });
const groups = async (query = '') => (await api(t.app, admin).getBody(`/api/admin/Log/GetClientErrorList?count=100${query}`)).Data as { list: ClientErrorGroup[]; total: number };
const stackAt = (file: string) => `TypeError: x is undefined\n    at render (chrome-extension://abcdefghijklmnopabcdefghijklmnop/chunks/${file}:10:20)\n    at next (chunks/other.js:1:2)`;

describe('client error log', () => {
  it('groups reports by message and top frame, counting them, with first/last seen, versions, surfaces and browsers', async () => {
    const base = { message: 'TypeError: x is undefined', surface: 'sidepanel', browser: 'Chrome 131', path: '/chat/1' };
    expect(await report([{ ...base, stack: stackAt('chat-a.js'), version: '1.2.0' }])).toMatchObject({ Code: 10000, Data: { saved: 1 } });
    await report([
      { ...base, stack: stackAt('chat-a.js').replace('chrome-extension://abcdefghijklmnopabcdefghijklmnop', 'https://app.example.com'), version: '1.3.0', surface: 'web', count: 4 },
      { ...base, stack: stackAt('chat-b.js'), version: '1.3.0' },
    ]);
    const mine = (await groups('&search=x%20is%20undefined')).list;
    expect(mine).toHaveLength(2);
    const a = mine.find((g) => g.topFrame?.includes('chat-a.js'))!;
    expect(a).toMatchObject({ count: 5, versions: ['1.2.0', '1.3.0'], surfaces: ['sidepanel', 'web'], browsers: ['Chrome 131'], resolvedTime: null });
    expect(a.topFrame).toBe('at render (/chunks/chat-a.js:10:20)');
    expect(Date.parse(a.lastSeen)).toBeGreaterThanOrEqual(Date.parse(a.firstSeen));
    expect(mine.find((g) => g.topFrame?.includes('chat-b.js'))!.count).toBe(1);
    expect((await groups('&surface=web&search=x%20is')).list.map((g) => g.clientErrorId)).toEqual([a.clientErrorId]);
  });

  it('scrubs e-mail addresses, tokens and query strings, and cuts long texts instead of refusing them', async () => {
    const res = await report([
      {
        message: 'Failed for ann@example.com with Bearer abc.def.ghi and key sk_live_1234567890abcdefghijklmnop',
        stack: 'Error\n    at f (https://app.example.com/chunks/a.js?token=secret123#frag:1:1)',
        surface: 'popup',
        path: 'https://app.example.com/pricing?tempKey=abc#x',
      },
      { message: 'Long '.repeat(1000), stack: 's'.repeat(10_000), surface: 'nonsense', version: 'v'.repeat(100) },
    ]);
    expect(res.Code).toBe(10000);
    const [scrubbed] = (await groups('&search=Failed%20for')).list;
    expect(scrubbed!.message).toBe('Failed for [email] with Bearer [token] and key [token]');
    expect(scrubbed!.stack).not.toContain('secret123');
    expect(scrubbed!.lastPath).toBe('/pricing');
    const [long] = (await groups('&search=Long%20Long')).list;
    expect(long!.message.length).toBeLessThanOrEqual(500);
    expect(long!.stack!.length).toBe(4000);
    expect(long!.surfaces).toEqual(['other']);
    expect(long!.versions[0]!.length).toBe(40);
    // More than 10 in one batch, or a body that is not a list, is refused.
    expect((await report(Array.from({ length: 11 }, () => ({ message: 'm', surface: 'web' })))).Code).toBe(10400);
    expect((await api(t.app).postBody('/api/Log/AddClientError', { message: 'm' }, { remoteAddress: address() })).Code).toBe(10400);
  });

  it('limits each visitor to 12 batches a minute', async () => {
    const me = '10.78.0.1';
    const codes: number[] = [];
    for (let i = 0; i < 13; i++) codes.push((await report([{ message: `burst ${i}`, surface: 'web' }], me)).Code);
    expect(codes.slice(0, 12).every((c) => c === 10000)).toBe(true);
    expect(codes[12]).toBe(10429);
    // Another visitor is not held back.
    expect((await report([{ message: 'other visitor', surface: 'web' }], '10.78.0.2')).Code).toBe(10000);
  });

  it('resolves a group, which reopens when reported again; operators only, audited', async () => {
    await report([{ message: 'Resolvable failure', surface: 'admin' }]);
    const [g] = (await groups('&search=Resolvable')).list;
    const resolved = await api(t.app, admin).postBody('/api/admin/Log/Resolve', { clientErrorId: g!.clientErrorId });
    expect(resolved.Data.resolvedTime).not.toBeNull();
    expect((await groups('&search=Resolvable')).total).toBe(0);
    expect((await groups('&search=Resolvable&state=resolved')).total).toBe(1);
    await report([{ message: 'Resolvable failure', surface: 'admin' }]);
    expect((await groups('&search=Resolvable')).list[0]).toMatchObject({ count: 2, resolvedTime: null });
    expect((await api(t.app, admin).postBody('/api/admin/Log/Resolve', { clientErrorId: 'nope' })).Code).toBe(10404);
    expect((await api(t.app).getBody('/api/admin/Log/GetClientErrorList')).Code).toBe(10402);
    const audit = (await api(t.app, admin).getBody('/api/admin/AuditLog/GetList?page=1&count=10&targetType=clientError')).Data.list;
    expect(audit.some((e: { targetId: string }) => e.targetId === g!.clientErrorId)).toBe(true);
  });
});

describe('client error log retention', () => {
  it('deletes the groups no one reported for TRACKING_RETENTION_DAYS, with the tracking sweep', async () => {
    await report([{ message: 'Ancient failure', surface: 'web' }]);
    await report([{ message: 'Recent failure', surface: 'web' }]);
    await t.app.ctx.db.update(clientErrors).set({ lastSeenAt: new Date(Date.now() - 91 * 86_400_000) }).where(eq(clientErrors.message, 'Ancient failure'));
    expect(await sweepClientErrors(t.app.ctx)).toBe(1);
    expect((await groups('&search=Ancient&state=all')).total).toBe(0);
    expect((await groups('&search=Recent&state=all')).total).toBe(1);
  });
});
