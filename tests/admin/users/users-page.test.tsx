import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { listFilters, UsersPage } from '../../../admin/users/users-page.tsx';
import type { AdminUser } from '../../../shared/contracts/admin-users.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp } from '../../helpers/render-app.tsx';
import { prepareDataTables } from '../shell/datatable-env.ts';

prepareDataTables();

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };
const row = (i: number): AdminUser => ({
  userId: `u${i}`,
  email: `user${i}@example.com`,
  userName: `User ${i}`,
  role: 'user',
  status: i === 2 ? 'closed' : 'active',
  planLevel: 0,
  planEndTime: null,
  balance: i * 10,
  sessionCount: i,
  lastActiveTime: null,
  createTime: '2026-11-01T00:00:00.000Z',
  headImg: i === 1 ? '/api/Account/GetHeadImg?headImgId=0b8e7a52-57c4-4a0e-9d3f-3b7f0d2a7a11' : null,
});

/** The look-ups' answers: by phone, one account or none (10404), 10400 for what is not a number; by visitor id, a list. */
const lookups = {
  '/api/Account/GetUserByPhone': (_req: unknown, res: Parameters<typeof sendEnvelope>[0], url: URL) => {
    const phone = url.searchParams.get('phone');
    if (phone === 'abc') return sendEnvelope(res, { Code: 10400, Msg: 'Enter a phone number of 6 to 15 digits.' });
    if (phone === '+15550001111') return sendEnvelope(res, { Code: 10000, Data: { ...row(7), phone } });
    return sendEnvelope(res, { Code: 10404, Msg: 'Not found.' });
  },
  '/api/Account/GetUserByVisotorId': (_req: unknown, res: Parameters<typeof sendEnvelope>[0], url: URL) =>
    sendEnvelope(res, {
      Code: 10000,
      Data: { list: url.searchParams.get('visitorId') === 'browser-7' ? [{ ...row(3), lastSeenTime: '2026-12-01T08:00:00.000Z' }] : [] },
    }),
};
const server = serveTheseTests(
  fakeApi({
    '/api/admin/User/GetList': (_req, res, url) => {
      const keyword = url.searchParams.get('keyword');
      const list = Array.from({ length: 45 }, (_, i) => row(i + 1)).filter((u) => !keyword || u.email.includes(keyword));
      const page = Number(url.searchParams.get('page'));
      return sendEnvelope(res, { Code: 10000, Data: { list: list.slice((page - 1) * 20, page * 20), total: list.length } });
    },
    ...lookups,
  }),
);
const asked = () => server.requests.filter((r) => r.url.startsWith('/api/admin/User/GetList')).map((r) => new URL(r.url, 'http://x').searchParams);

describe('the users list query', () => {
  it('sends the typed search, the filters chosen and the order, nothing empty', () => {
    expect(listFilters('  grace ', { role: null, planLevel: '0', status: 'closed' }, { columnAccessor: 'balance', direction: 'asc' })).toEqual({
      keyword: 'grace',
      role: undefined,
      planLevel: 0,
      status: 'closed',
      sort: 'balance',
      order: 'asc',
    });
    expect(listFilters('', { role: 'admin', planLevel: null, status: null }, { columnAccessor: 'lastActiveTime', direction: 'desc' })).toMatchObject({
      keyword: undefined,
      role: 'admin',
      planLevel: undefined,
      sort: 'lastActive',
    });
  });
});

describe('UsersPage', () => {
  it('pages, sorts and searches on the server; a row leads to the user', { timeout: 90_000 }, async () => {
    const memory = memoryLocation({ path: '/admin/users', record: true });
    await renderInApp(
      <Router hook={memory.hook}>
        <UsersPage />
      </Router>,
      { apiBase: server.url, user: admin },
    );
    const table = () => screen.getByRole('table', { name: 'Users' });
    await waitFor(() => expect(table()).toHaveTextContent('user1@example.com'));
    expect(asked()[0]!.get('sort')).toBe('created');
    expect(asked()[0]!.get('order')).toBe('desc');
    expect(table()).toHaveTextContent('Closed');
    // Each row shows the user's picture, or the initials without one.
    const avatars = screen.getAllByTestId('admin-user-row-avatar');
    expect(avatars[0]!.querySelector('img')).toHaveAttribute('src', `${server.url}/api/Account/GetHeadImg?headImgId=0b8e7a52-57c4-4a0e-9d3f-3b7f0d2a7a11`);
    expect(avatars[1]).toHaveAttribute('data-avatar', 'initials');
    expect(avatars[1]).toHaveTextContent('U2');

    // The pager is disabled while a page loads (a slow machine may still be loading the first).
    await waitFor(() => expect(screen.getByRole('button', { name: '2' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(table()).toHaveTextContent('user21@example.com'));
    expect(asked().at(-1)!.get('page')).toBe('2');

    await userEvent.click(screen.getByText('Balance'));
    await waitFor(() => expect(asked().at(-1)!.get('sort')).toBe('balance'));
    // Another order starts at the first page.
    expect(asked().at(-1)!.get('page')).toBe('1');

    await userEvent.type(screen.getByRole('textbox', { name: 'Search' }), 'user4');
    await waitFor(() => expect(asked().some((q) => q.get('keyword') === 'user4')).toBe(true));
    await waitFor(() => expect(table()).toHaveTextContent('user45@example.com'));

    await userEvent.click(screen.getByRole('link', { name: 'user4@example.com' }));
    expect(memory.history.at(-1)).toBe('/admin/users/u4');
  });

  it('finds accounts by exactly one field: one row, none, a refusal, and by visitor id when each was last seen', { timeout: 90_000 }, async () => {
    // The open menu scrolls its chosen option into view; jsdom has no scrolling.
    Element.prototype.scrollIntoView = () => undefined;
    onTestFinished(() => void delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView);
    await renderInApp(
      <Router hook={memoryLocation({ path: '/admin/users' }).hook}>
        <UsersPage />
      </Router>,
      { apiBase: server.url, user: admin },
    );
    const table = () => screen.getByRole('table', { name: 'Users' });
    await waitFor(() => expect(table()).toHaveTextContent('user1@example.com'));
    const listed = asked().length;
    const findBy = async (option: string) => {
      await userEvent.click(screen.getByLabelText('Find by', { selector: 'input' }));
      await userEvent.click(await screen.findByRole('option', { name: option, hidden: true }));
    };
    const search = () => screen.getByRole('textbox', { name: 'Search' });
    const lookedUp = (path: string) => server.requests.filter((r) => r.url.startsWith(path)).map((r) => new URL(r.url, 'http://x').searchParams);

    await findBy('Phone number');
    expect(await screen.findByText('Type what to find')).toBeInTheDocument();
    await waitFor(() => expect(table()).not.toHaveTextContent('user1@example.com'));
    expect(search()).toHaveAttribute('placeholder', 'The phone number, any spacing');
    await userEvent.type(search(), '+15550001111');
    await waitFor(() => expect(table()).toHaveTextContent('user7@example.com'));
    expect(table()).not.toHaveTextContent('user1@example.com');
    expect(lookedUp('/api/Account/GetUserByPhone').at(-1)!.get('phone')).toBe('+15550001111');

    await userEvent.clear(search());
    await userEvent.type(search(), '+15559999999');
    await waitFor(() => expect(table()).not.toHaveTextContent('user7@example.com'));
    expect(screen.getByText('No user matches')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();

    await userEvent.clear(search());
    await userEvent.type(search(), 'abc');
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter a phone number of 6 to 15 digits.');

    await findBy('Visitor id');
    await userEvent.clear(search());
    await userEvent.type(search(), 'browser-7');
    await waitFor(() => expect(table()).toHaveTextContent('user3@example.com'));
    expect(screen.getByRole('columnheader', { name: 'Last seen there' })).toBeInTheDocument();
    expect(lookedUp('/api/Account/GetUserByVisotorId').at(-1)!.get('visitorId')).toBe('browser-7');
    // The list was not asked again while looking up.
    expect(asked()).toHaveLength(listed);

    await findBy('Search the list');
    await waitFor(() => expect(asked().length).toBeGreaterThan(listed));
    expect(asked().at(-1)!.get('keyword')).toBe('browser-7');
  });
});
