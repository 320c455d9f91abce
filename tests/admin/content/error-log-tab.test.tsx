import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorLogTab } from '../../../admin/content/error-log-tab.tsx';
import type { ClientErrorGroup } from '../../../shared/contracts/client-error-log.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp } from '../../helpers/render-app.tsx';
import { prepareDataTables } from '../shell/datatable-env.ts';

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };

const group = (id: string, message: string, fields: Partial<ClientErrorGroup> = {}): ClientErrorGroup => ({
  clientErrorId: id,
  fingerprint: `fp-${id}`,
  message,
  topFrame: 'at render (/chunks/chat.js:1:2)',
  stack: `${message}\n    at render (/chunks/chat.js:1:2)`,
  surfaces: ['sidepanel'],
  versions: ['0.1.0'],
  browsers: ['Chrome 131'],
  lastPath: '/',
  count: 3,
  firstSeen: '2026-12-01T10:00:00.000Z',
  lastSeen: '2026-12-02T10:00:00.000Z',
  resolvedTime: null,
  ...fields,
});

let groups: ClientErrorGroup[];

const server = serveTheseTests(
  fakeApi({
    '/api/admin/Log/GetClientErrorList': (_req, res, url) => {
      const state = url.searchParams.get('state');
      const surface = url.searchParams.get('surface');
      const list = groups.filter((g) => (state === 'resolved' ? g.resolvedTime : state === 'all' ? true : !g.resolvedTime) && (!surface || g.surfaces.includes(surface)));
      return sendEnvelope(res, { Code: 10000, Data: { list, total: list.length } });
    },
    '/api/admin/Log/Resolve': (req, res) => {
      const { clientErrorId } = JSON.parse(req.body) as { clientErrorId: string };
      groups = groups.map((g) => (g.clientErrorId === clientErrorId ? { ...g, resolvedTime: '2026-12-03T10:00:00.000Z' } : g));
      return sendEnvelope(res, { Code: 10000, Data: groups.find((g) => g.clientErrorId === clientErrorId) });
    },
  }),
);
const listQueries = () => server.requests.filter((r) => r.url.startsWith('/api/admin/Log/GetClientErrorList')).map((r) => new URL(r.url, 'http://x').searchParams);

beforeAll(prepareDataTables);
beforeEach(() => {
  groups = [group('e1', 'TypeError: x is undefined', { count: 7, versions: ['0.1.0', '0.2.0'], surfaces: ['sidepanel', 'web'] }), group('e2', 'Old failure', { surfaces: ['popup'] })];
});

describe('ErrorLogTab', () => {
  it('lists the open groups with their count, surfaces and versions, and filters by surface', async () => {
    await renderInApp(<ErrorLogTab />, { apiBase: server.url, user: admin });
    const table = await screen.findByRole('table', { name: 'Error log' });
    const row = (await within(table).findByText('TypeError: x is undefined')).closest('tr')!;
    expect(row).toHaveTextContent('7');
    expect(row).toHaveTextContent('0.1.0, 0.2.0');
    expect(within(row).getByText('Side panel')).toBeVisible();
    expect(within(row).getByText('Web app')).toBeVisible();
    expect(listQueries()[0]!.get('state')).toBe('open');

    await userEvent.click(screen.getByRole('combobox', { name: 'Surface' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Popup', hidden: true }));
    await waitFor(() => expect(within(table).queryByText('TypeError: x is undefined')).toBeNull());
    expect(within(table).getByText('Old failure')).toBeVisible();
    expect(listQueries().at(-1)!.get('surface')).toBe('popup');
  });

  it('shows a group’s stack on click, and resolves it', async () => {
    await renderInApp(<ErrorLogTab />, { apiBase: server.url, user: admin });
    const table = await screen.findByRole('table', { name: 'Error log' });
    await userEvent.click(await within(table).findByText('Old failure'));
    const stack = await screen.findByText(/at render \(\/chunks\/chat\.js:1:2\)\s*$/, { selector: 'pre' });
    // The row opens with a short animation.
    await waitFor(() => expect(stack).toBeVisible());
    await userEvent.click(screen.getByRole('button', { name: 'Resolve “Old failure”' }));
    await waitFor(() => expect(within(table).queryByText('Old failure')).toBeNull());
    expect(server.requests.filter((r) => r.url === '/api/admin/Log/Resolve').map((r) => JSON.parse(r.body) as unknown)).toEqual([{ clientErrorId: 'e2' }]);
  });
});
