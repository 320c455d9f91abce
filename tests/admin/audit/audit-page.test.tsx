import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { auditFilters, AuditPage, draftProblems } from '../../../admin/audit/audit-page.tsx';
import { flatten, jsonDiff, MAX_DIFF_ROWS, showValue } from '../../../admin/audit/json-diff.ts';
import type { AuditEntry } from '../../../shared/contracts/audit.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp } from '../../helpers/render-app.tsx';
import { prepareDataTables } from '../shell/datatable-env.ts';

prepareDataTables();

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };

const entries: AuditEntry[] = [
  {
    id: 'e1',
    actorId: 'a1',
    actorEmail: 'admin@example.com',
    action: 'AiModel/Save',
    targetType: 'aiModel',
    targetId: 'basic',
    before: { name: 'Basic', pointsCost: 1, flags: { web: false } },
    after: { name: 'Basic', pointsCost: 2, flags: { web: true }, online: true },
    createTime: '2026-11-25T10:00:00.000Z',
  },
  {
    id: 'e2',
    actorId: 'a1',
    actorEmail: 'admin@example.com',
    action: 'UserNotification/Broadcast',
    targetType: 'notification',
    targetId: null,
    before: null,
    after: { title: 'Hello', audience: 'all' },
    createTime: '2026-11-25T09:00:00.000Z',
  },
];

const server = serveTheseTests(
  fakeApi({
    '/api/admin/AuditLog/GetList': (_req, res) => sendEnvelope(res, { Code: 10000, Data: { list: entries, total: entries.length } }),
  }),
);
const asked = () => server.requests.filter((r) => r.url.startsWith('/api/admin/AuditLog/GetList')).map((r) => new URL(r.url, 'http://x').searchParams);

describe('the audit diff', () => {
  it('lists changed, added and removed leaves by path', () => {
    expect(jsonDiff({ a: 1, b: { c: [1, 2] }, gone: 'x' }, { a: 2, b: { c: [1, 3] }, d: null })).toEqual([
      { path: 'a', kind: 'changed', before: 1, after: 2 },
      { path: 'b.c[1]', kind: 'changed', before: 2, after: 3 },
      { path: 'gone', kind: 'removed', before: 'x' },
      { path: 'd', kind: 'added', after: null },
    ]);
    expect(jsonDiff({ same: [1] }, { same: [1] })).toEqual([]);
    expect(jsonDiff(null, { title: 'Hi' })).toEqual([{ path: 'title', kind: 'added', after: 'Hi' }]);
    expect(jsonDiff('a', 'b')).toEqual([{ path: '(value)', kind: 'changed', before: 'a', after: 'b' }]);
  });

  it('stays bounded on deep or huge values', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 1000; i++) deep = { x: deep };
    expect(flatten(deep).size).toBe(1);
    const huge = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]));
    expect(jsonDiff({}, huge)).toHaveLength(MAX_DIFF_ROWS);
    expect(showValue('x'.repeat(1000))).toHaveLength(301);
    expect(showValue({ a: 1 })).toBe('{"a":1}');
  });
});

describe('the audit filters', () => {
  const empty = { actorEmail: '', action: '', targetType: '', targetId: '', from: '', to: '' };
  it('sends only what was typed, trimmed', () => {
    expect(auditFilters({ ...empty, action: ' User/GrantPoints ', from: '2026-11-01' })).toEqual({
      actorEmail: undefined,
      action: 'User/GrantPoints',
      targetType: undefined,
      targetId: undefined,
      from: '2026-11-01',
      to: undefined,
    });
  });
  it('refuses a target type the server would refuse, and a range backwards', () => {
    expect(draftProblems({ ...empty, targetType: 'user' })).toEqual({});
    expect(draftProblems({ ...empty, targetType: '1; drop' })).toEqual({ targetType: 'targetTypeInvalid' });
    expect(draftProblems({ ...empty, from: '2026-12-01', to: '2026-11-01' })).toEqual({ from: 'fromAfterTo' });
  });
});

describe('AuditPage', () => {
  it('lists entries; a row opens to show what changed; filters go to the server', async () => {
    await renderInApp(<AuditPage />, { apiBase: server.url, user: admin });
    // The table may render again once it knows its size: it is looked up afresh each time.
    const table = () => screen.getByRole('table', { name: 'Audit log' });
    await waitFor(() => expect(table()).toHaveTextContent('AiModel/Save'));
    expect(table()).toHaveTextContent('(several)');

    await userEvent.click(within(table()).getByText('AiModel/Save'));
    const diff = await screen.findByRole('region', { name: 'What changed' });
    expect(diff).toHaveTextContent('pointsCost');
    expect(diff).toHaveTextContent('flags.web');
    expect(diff).toHaveTextContent('online');
    expect(diff).not.toHaveTextContent(/^name/);

    await userEvent.type(screen.getByRole('textbox', { name: 'Action' }), 'User/GrantPoints');
    await waitFor(() => expect(asked().some((q) => q.get('action') === 'User/GrantPoints')).toBe(true));
    const last = asked().at(-1)!;
    expect(last.get('page')).toBe('1');
    expect(last.has('actorEmail')).toBe(false);

    const before = asked().length;
    await userEvent.type(screen.getByRole('textbox', { name: 'Target type' }), '1bad');
    expect(await screen.findByText('Letters, digits, - and _ only, starting with a letter')).toBeInTheDocument();
    // Give the debounce its time by waiting for the next change that would be sent: none is.
    await userEvent.clear(screen.getByRole('textbox', { name: 'Target type' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Target type' }), 'user');
    await waitFor(() => expect(asked().some((q) => q.get('targetType') === 'user')).toBe(true));
    expect(asked().slice(before).some((q) => q.get('targetType') === '1bad')).toBe(false);
  });
});
