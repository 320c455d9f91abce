import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SubscriptionPage } from '../../../components/plans/subscription-page.tsx';
import type { Subscription, VipOrder } from '../../../shared/contracts/plans.ts';
import type { UserInfo } from '../../../shared/contracts/user.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

const END = '2027-11-25T12:00:00.000Z';
let subscription: Subscription | null;
let orders: VipOrder[];
let cancelRefused = false;

const order = (i: number, fields: Partial<VipOrder> = {}): VipOrder => ({
  vipOrderId: `o${i}`,
  vipPackageId: 'advanced-year',
  packageName: 'Advanced',
  level: 2,
  period: 'year',
  source: 'stripe',
  status: 'paid',
  amount: 19190,
  currency: 'usd',
  points: 240000,
  startTime: '2026-11-25T12:00:00.000Z',
  endTime: END,
  active: i === 1,
  createTime: '2026-11-25T12:00:00.000Z',
  ...fields,
});

const server = serveTheseTests(
  fakeApi({
    '/api/Vip/GetSubscription': (_req, res) => sendEnvelope(res, { Code: 10000, Data: subscription }),
    '/api/Vip/CancelSubscription': (_req, res) => {
      if (cancelRefused) return sendEnvelope(res, { Code: 10461, Msg: 'Payments are not set up on this server.', Data: null });
      subscription = { ...subscription!, cancelAtPeriodEnd: true };
      sendEnvelope(res, { Code: 10000, Data: { cancelAtPeriodEnd: true, endTime: END } });
    },
    '/api/Vip/ResumeSubscription': (_req, res) => {
      subscription = { ...subscription!, cancelAtPeriodEnd: false };
      sendEnvelope(res, { Code: 10000, Data: { cancelAtPeriodEnd: false, endTime: END } });
    },
    '/api/Vip/CreatePortalSession': (_req, res) => sendEnvelope(res, { Code: 10000, Data: { url: 'https://billing.stripe.test/p/session/1' } }),
    '/api/Vip/GetVipOrderList': (_req, res, url) => {
      const page = Number(url.searchParams.get('page'));
      const count = Number(url.searchParams.get('count'));
      sendEnvelope(res, { Code: 10000, Data: { list: orders.slice((page - 1) * count, page * count), total: orders.length } });
    },
    '/api/Vip/DeleteVipOrder': (req, res) => {
      const { vipOrderId } = JSON.parse(req.body) as { vipOrderId: string };
      orders = orders.filter((o) => o.vipOrderId !== vipOrderId);
      sendEnvelope(res, { Code: 10000 });
    },
    '/api/User/GetUserByLogin': (_req, res) => sendEnvelope(res, { Code: 10000, Data: subscriber }),
  }),
);

const subscriber: UserInfo = { ...testUser, vipOrder: { vipOrderId: 'o1', vipPackageLevel: 2, vipPackageName: 'Advanced', endTime: END } };

beforeEach(() => {
  cancelRefused = false;
  subscription = { subscriptionId: 'sub_1', status: 'active', level: 2, packageName: 'Advanced', period: 'year', currentPeriodEnd: END, cancelAtPeriodEnd: false, portalAvailable: true };
  orders = [order(1), order(2, { source: 'redeem', status: 'granted', amount: null, currency: null, packageName: 'Standard', level: 1, period: null })];
});
afterEach(() => vi.restoreAllMocks());

const calls = (path: string) => server.requests.filter((r) => r.url.startsWith(path));

describe('SubscriptionPage', () => {
  it('cancels at the period end, saying until when the plan runs, and resumes', async () => {
    await renderInApp(<SubscriptionPage onBack={vi.fn()} onNavigate={vi.fn()} />, { apiBase: server.url, user: subscriber });
    const summary = await screen.findByTestId('plan-summary');
    expect(summary).toHaveTextContent('Advanced');
    expect(summary.dataset.tier).toBe('2');
    expect(screen.getByTestId('plan-dates')).toHaveTextContent('Yearly · Renews on 2027-11-25');

    await userEvent.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('You keep your plan until 2027-11-25; after that it will not renew.');
    // Keeping it changes nothing.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(calls('/api/Vip/CancelSubscription')).toHaveLength(0);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel subscription' }));
    expect(await screen.findByTestId('subscription-notice')).toHaveTextContent('Your plan runs until 2027-11-25 and will not renew.');
    expect(calls('/api/Vip/CancelSubscription')).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('plan-dates')).toHaveTextContent('Ends on 2027-11-25'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('button', { name: 'Cancel subscription' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Resume subscription' }));
    await waitFor(() => expect(screen.getByTestId('subscription-notice')).toHaveTextContent('Your subscription is back on: it renews on 2027-11-25.'));
    expect(calls('/api/Vip/ResumeSubscription')).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('plan-dates')).toHaveTextContent('Renews on 2027-11-25'));
    expect(screen.getByRole('button', { name: 'Cancel subscription' })).toBeInTheDocument();
  });

  it("says 'cancel failed' with the reason when the cancellation is refused", async () => {
    cancelRefused = true;
    await renderInApp(<SubscriptionPage onBack={vi.fn()} onNavigate={vi.fn()} />, { apiBase: server.url, user: subscriber });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel subscription' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel subscription' }));
    expect(await screen.findByText('cancel failed: Payments are not set up on this server.')).toBeInTheDocument();
    expect(screen.getByTestId('plan-dates')).toHaveTextContent('Renews on 2027-11-25');
  });

  it('opens the customer portal, and lists the orders, one of which is hidden', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    await renderInApp(<SubscriptionPage onBack={vi.fn()} onNavigate={vi.fn()} />, { apiBase: server.url, user: subscriber, platform: { isExtension: true, scene: 'extension' } });
    await userEvent.click(await screen.findByRole('button', { name: 'Manage payment methods and invoices' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('https://billing.stripe.test/p/session/1', '_blank', 'noopener,noreferrer'));

    const rows = await screen.findAllByTestId('order-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('$191.90');
    expect(rows[0]).toHaveTextContent('Paid');
    expect(rows[0]).toHaveTextContent('In force');
    expect(rows[0]).toHaveTextContent('2026-11-25 to 2027-11-25');
    expect(rows[0]).toHaveTextContent('Online payment');
    expect(rows[1]).toHaveTextContent('Standard');
    expect(rows[1]).toHaveTextContent('Granted');
    expect(rows[1]).toHaveTextContent('Redeem code');
    expect(rows[1]).toHaveTextContent('—');

    await userEvent.click(screen.getByRole('button', { name: 'Hide the Standard order from history' }));
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(1));
    expect(JSON.parse(calls('/api/Vip/DeleteVipOrder')[0]!.body)).toEqual({ vipOrderId: 'o2' });
  });

  it('pages the order history 10 at a time', async () => {
    orders = Array.from({ length: 13 }, (_, i) => order(i + 1));
    await renderInApp(<SubscriptionPage onBack={vi.fn()} onNavigate={vi.fn()} />, { apiBase: server.url, user: subscriber });
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(10));
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('order-row')).toHaveLength(13));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(calls('/api/Vip/GetVipOrderList').map((r) => new URL(r.url, 'http://x').searchParams.get('page'))).toEqual(['1', '2']);
  });

  it('offers a free user the plans', async () => {
    subscription = null;
    orders = [];
    const onNavigate = vi.fn();
    await renderInApp(<SubscriptionPage onBack={vi.fn()} onNavigate={onNavigate} />, { apiBase: server.url, user: testUser });
    const cta = await screen.findByTestId('go-premium');
    expect(cta).toHaveTextContent("You're on the free plan");
    await userEvent.click(within(cta).getByRole('button', { name: 'Go premium' }));
    expect(onNavigate).toHaveBeenCalledWith('/pricing');
    expect(await screen.findByText('No orders yet.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel subscription' })).toBeNull();
  });

  it('shows a granted plan with its end and no renewal, and asks a visitor to sign in', async () => {
    subscription = null;
    const { unmount } = await renderInApp(<SubscriptionPage onBack={vi.fn()} onNavigate={vi.fn()} />, { apiBase: server.url, user: subscriber });
    expect(await screen.findByTestId('plan-summary')).toHaveTextContent('Expires 2027-11-25');
    expect(screen.getByText('This plan does not renew: it ends on 2027-11-25.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel subscription' })).toBeNull();
    unmount();

    server.requests.length = 0;
    await renderInApp(<SubscriptionPage onBack={vi.fn()} onNavigate={vi.fn()} />, { apiBase: server.url, user: null });
    expect(screen.getByText('Sign in to see your plan and orders.')).toBeInTheDocument();
    expect(server.requests.filter((r) => r.url.startsWith('/api/Vip/'))).toHaveLength(0);
  });
});
