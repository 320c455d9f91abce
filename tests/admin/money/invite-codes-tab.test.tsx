import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminInviteCode, AdminInviteUse } from '../../../shared/contracts/admin-invites.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { prepareDataTables } from '../shell/datatable-env.ts';
import { renderMoneyPage } from './render-money-page.tsx';

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };

let codes: AdminInviteCode[];
const uses: AdminInviteUse[] = [
  { inviteCode: 'K7QX2M9P', ownerId: 'u1', ownerEmail: 'ann@example.com', inviteeId: 'u9', inviteeEmail: 'bob@example.com', inviteeName: 'Bob', useTime: '2026-12-01T10:00:00.000Z', pointsPaid: 100, paidTime: '2026-12-02T10:00:00.000Z' },
  { inviteCode: 'K7QX2M9P', ownerId: 'u1', ownerEmail: 'ann@example.com', inviteeId: 'u8', inviteeEmail: 'cy@example.com', inviteeName: 'Cy', useTime: '2026-12-03T10:00:00.000Z', pointsPaid: null, paidTime: null },
];

/** The admin invite-code routes over an in-memory list: a search filters by code or e-mail, Disable flips a code. */
const server = serveTheseTests(
  fakeApi({
    '/api/admin/InviteCode/GetList': (_req, res, url) => {
      const keyword = url.searchParams.get('keyword')?.toLowerCase();
      const list = keyword ? codes.filter((c) => c.inviteCode.toLowerCase() === keyword || c.ownerEmail.includes(keyword)) : codes;
      sendEnvelope(res, { Code: 10000, Data: { list, total: list.length } });
    },
    '/api/admin/InviteCode/Disable': (req, res) => {
      const { ownerId, disabled } = JSON.parse(req.body) as { ownerId: string; disabled: boolean };
      codes = codes.map((c) => (c.ownerId === ownerId ? { ...c, disabled, disabledTime: disabled ? '2026-12-07T10:00:00.000Z' : null } : c));
      sendEnvelope(res, { Code: 10000, Data: codes.find((c) => c.ownerId === ownerId) });
    },
    '/api/admin/InviteCodeUsed/GetList': (_req, res) => sendEnvelope(res, { Code: 10000, Data: { list: uses, total: uses.length } }),
  }),
);
const sent = (path: string) => server.requests.filter((r) => r.url.startsWith(path));

beforeAll(() => prepareDataTables());
beforeEach(() => {
  codes = [
    { inviteCode: 'K7QX2M9P', ownerId: 'u1', ownerEmail: 'ann@example.com', ownerName: 'Ann', disabled: false, disabledTime: null, usedCount: 2, creditedCount: 1, pointsPaid: 100 },
    { inviteCode: 'ZZZZ2222', ownerId: 'u2', ownerEmail: 'dan@example.com', ownerName: 'Dan', disabled: false, disabledTime: null, usedCount: 0, creditedCount: 0, pointsPaid: 0 },
  ];
});

describe('the console: invite codes and their uses', () => {
  it('lists codes with their owners, finds one, and disables it', async () => {
    await renderMoneyPage('/admin/money/inviteCodes', { apiBase: server.url, user: admin });
    const table = () => screen.getByRole('table', { name: 'Invite codes' });
    await waitFor(() => expect(table()).toHaveTextContent('Ann <ann@example.com>'));
    await userEvent.type(screen.getByRole('textbox', { name: 'Code, e-mail or name' }), 'dan@');
    await waitFor(() => expect(table()).not.toHaveTextContent('ann@example.com'));
    const row = within(table()).getByText('ZZZZ2222').closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(sent('/api/admin/InviteCode/Disable').map((r) => JSON.parse(r.body))).toEqual([{ ownerId: 'u2', disabled: true }]));
    await waitFor(() => expect(within(within(table()).getByText('ZZZZ2222').closest('tr')!).getByText('Disabled')).toBeInTheDocument());
  });

  it('shows who used which code, and the reward paid or not yet', async () => {
    await renderMoneyPage('/admin/money/inviteUses', { apiBase: server.url, user: admin });
    const table = () => screen.getByRole('table', { name: 'Invite uses' });
    await waitFor(() => expect(table()).toHaveTextContent('Bob <bob@example.com>'));
    expect(within(within(table()).getByText('Cy <cy@example.com>').closest('tr')!).getByText('Not yet')).toBeInTheDocument();
    expect(within(table()).getByText(/^100 · /)).toBeInTheDocument();
  });
});
