import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../../shared/utils/money.ts';
import type { AdminOrder } from '../../../shared/contracts/admin-money.ts';
import { prepareDataTables } from '../shell/datatable-env.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderMoneyPage } from './render-money-page.tsx';

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };

const order = (n: number): AdminOrder => ({
  vipOrderId: `o${n}`,
  userId: `u${n}`,
  userEmail: `user${n}@example.com`,
  userName: `User ${n}`,
  packageLevel: 1,
  packageName: 'Standard',
  packageId: 'standard-month',
  period: 'month',
  source: 'stripe',
  status: n % 2 ? 'active' : 'refunded',
  amount: 999,
  currency: 'usd',
  startTime: '2026-11-01T00:00:00.000Z',
  endTime: '2026-12-01T00:00:00.000Z',
  createTime: '2026-11-01T00:00:00.000Z',
  refundTime: null,
  dispute: n === 2 ? 'open' : null,
  stripeInvoiceId: null,
  stripeSubscriptionId: null,
  pointsGranted: 1000,
  pointsTaken: 0,
  hiddenByUser: false,
});

const server = serveTheseTests(
  fakeApi({
    '/api/admin/Vip/GetOrderList': (_req, res, url) => {
      const status = url.searchParams.get('status');
      const all = Array.from({ length: 30 }, (_, i) => order(i + 1)).filter((o) => !status || o.status === status);
      const page = Number(url.searchParams.get('page'));
      return sendEnvelope(res, { Code: 10000, Data: { list: all.slice((page - 1) * 20, page * 20), total: all.length } });
    },
    '/api/admin/RedeemCode/GetBatchList': (_req, res) => sendEnvelope(res, { Code: 10000, Data: { list: [], total: 0 } }),
    '/api/admin/RedeemCode/GenerateBatch': (_req, res) => sendEnvelope(res, { Code: 10000, Data: { batchId: 'b1', count: 5 } }),
  }),
);
const orderQueries = () => server.requests.filter((r) => r.url.startsWith('/api/admin/Vip/GetOrderList')).map((r) => Object.fromEntries(new URL(r.url, 'http://x').searchParams));

prepareDataTables();


describe('formatMoney', () => {
  it('reads minor units in the currency’s own digits', () => {
    expect(formatMoney(999, 'usd', 'en')).toBe('$9.99');
    expect(formatMoney(500, 'jpy', 'en')).toBe('¥500');
    expect(formatMoney(null, 'usd', 'en')).toBe('');
  });
});

describe('MoneyPage', () => {
  it('lists orders a page at a time, and a filter asks the server again from page 1', async () => {
    const location = await renderMoneyPage('/admin/money/orders', { apiBase: server.url, user: admin });
    const table = () => screen.getByRole('table', { name: 'Orders' });
    // The rows are drawn again once the data arrives: each check asks for the table afresh.
    await waitFor(() => expect(within(table()).getByText('user1@example.com').closest('tr')).toHaveTextContent('Standard (Standard, Monthly)StripeActive$9.99'));
    // An order under a chargeback says so.
    expect(within(table()).getByText('user2@example.com').closest('tr')).toHaveTextContent('RefundedChargeback open');
    // The pager is drawn again when the first page's figures settle: a click on a button being replaced
    // is lost, so click (the same page, idempotently) until the second page is asked for.
    await waitFor(async () => {
      await userEvent.click(screen.getByRole('button', { name: /^2$/ }));
      expect(orderQueries().at(-1)).toMatchObject({ page: '2', count: '20' });
    });
    await waitFor(() => expect(within(table()).getByText('user21@example.com')).toBeInTheDocument());
    expect(within(table()).queryByText('user1@example.com')).toBeNull();

    await userEvent.click(screen.getByLabelText('Status', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Refunded', hidden: true }));
    await waitFor(() => expect(orderQueries().at(-1)).toEqual({ page: '1', count: '20', status: 'refunded' }));

    await userEvent.click(screen.getByRole('tab', { name: 'Redeem codes' }));
    expect(location.history.at(-1)).toBe('/admin/money/redeem');
  });

  it('the redeem form names what is missing before sending', async () => {
    await renderMoneyPage('/admin/money/redeem', { apiBase: server.url, user: admin });
    await userEvent.click(await screen.findByRole('button', { name: 'Generate codes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate codes' });
    await userEvent.type(within(dialog).getByLabelText(/Batch name/), 'Launch week');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Generate codes' }));
    expect(await within(dialog).findByText('Each code must give points or plan days.')).toBeVisible();
    expect(server.requests.some((r) => r.url === '/api/admin/RedeemCode/GenerateBatch')).toBe(false);

    const days = within(dialog).getByRole('textbox', { name: 'Plan days each' });
    await userEvent.clear(days);
    await userEvent.type(days, '30');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Generate codes' }));
    expect(await within(dialog).findByText('Choose the plan level the days are of.')).toBeVisible();
    expect(server.requests.some((r) => r.url === '/api/admin/RedeemCode/GenerateBatch')).toBe(false);
  });
});
