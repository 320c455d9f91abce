import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PayResultPage } from '../../../components/plans/pay-result-page.tsx';
import { rememberPurchase } from '../../../components/plans/pending-purchase.ts';
import { userInfoAtom } from '../../../shared/atoms/auth.ts';
import type { UserInfo } from '../../../shared/contracts/user.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/** GetUserByLogin answers the free plan this many times, then the Advanced plan the webhook made. */
let freeAnswers: number;
let subscriptionLevel: number | null;
const advanced: UserInfo = { ...testUser, vipOrder: { vipOrderId: 'o1', vipPackageLevel: 2, vipPackageName: 'Advanced', endTime: '2027-11-25T12:00:00Z' } };

const server = serveTheseTests(
  fakeApi({
    '/api/User/GetUserByLogin': (_req, res) => sendEnvelope(res, { Code: 10000, Data: freeAnswers-- > 0 ? testUser : advanced }),
    '/api/Vip/GetSubscription': (_req, res) =>
      sendEnvelope(res, {
        Code: 10000,
        Data: subscriptionLevel === null ? null : { subscriptionId: 'sub_1', status: 'active', level: subscriptionLevel, packageName: 'Advanced', period: 'year', currentPeriodEnd: null, cancelAtPeriodEnd: false, portalAvailable: true },
      }),
  }),
);
beforeEach(() => {
  freeAnswers = 2;
  subscriptionLevel = 2;
  sessionStorage.clear();
  // The poll's timers are fake but move with the clock, so requests and renders go on as usual and a
  // test can jump past any number of polls at once to show that none is left (instead of sleeping).
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Requests for the user this page has started (counted as they leave, not as they arrive). */
function userRequestsStarted(): () => number {
  const spy = vi.spyOn(globalThis, 'fetch');
  return () => spy.mock.calls.filter(([input]) => String(input instanceof Request ? input.url : input).includes('/api/User/GetUserByLogin')).length;
}

const userCalls = () => server.requests.filter((r) => r.url.startsWith('/api/User/GetUserByLogin'));
const FAST = { intervalMs: 50, timeoutMs: 2_000 };

describe('PayResultPage', () => {
  it('after a payment, asks for the user until the plan shows, then shows the plan and its end date', async () => {
    rememberPurchase({ vipPackageId: 'advanced-year', level: 2, name: 'Advanced' });
    const started = userRequestsStarted();
    const onPlanChanged = vi.fn();
    const { store } = await renderInApp(<PayResultPage status="success" onNavigate={vi.fn()} onPlanChanged={onPlanChanged} poll={FAST} />, {
      apiBase: server.url,
      user: testUser,
    });
    expect(screen.getByTestId('plan-waiting')).toHaveTextContent('Activating your plan');
    expect(await screen.findByTestId('plan-active')).toHaveTextContent('Your Advanced plan is active until 2027-11-25.');
    expect(userCalls()).toHaveLength(3);
    expect(screen.getByTestId('plan-summary')).toHaveTextContent('Expires 2027-11-25');
    expect(screen.getByTestId('plan-summary').dataset.tier).toBe('2');
    // Every surface shows the plan at once; the model list is read again.
    expect(store.get(userInfoAtom)?.vipOrder?.vipPackageLevel).toBe(2);
    expect(onPlanChanged).toHaveBeenCalledTimes(1);
    // The tab's purchase is settled, and the subscription was not needed to know the level.
    expect(sessionStorage.getItem('tandem.plans.pending')).toBeNull();
    expect(server.requests.filter((r) => r.url.startsWith('/api/Vip/GetSubscription'))).toHaveLength(0);
    // No further asking, however long the page stays open.
    const asked = started();
    await vi.advanceTimersByTimeAsync(FAST.timeoutMs * 2);
    expect(started()).toBe(asked);
  });

  it('waits for the level of the subscription when the checkout was opened elsewhere (the side panel)', async () => {
    freeAnswers = 1;
    await renderInApp(<PayResultPage status="success" onNavigate={vi.fn()} poll={FAST} />, { apiBase: server.url, user: testUser });
    await screen.findByTestId('plan-active');
    expect(server.requests.filter((r) => r.url.startsWith('/api/Vip/GetSubscription')).length).toBeGreaterThan(0);
  });

  it('says the plan is on its way when it has not shown within the time', async () => {
    freeAnswers = 1000;
    const started = userRequestsStarted();
    await renderInApp(<PayResultPage status="success" onNavigate={vi.fn()} poll={{ intervalMs: 50, timeoutMs: 300 }} />, { apiBase: server.url, user: testUser });
    expect(await screen.findByTestId('plan-slow')).toHaveTextContent('taking longer than usual');
    expect(userCalls().length).toBeGreaterThan(2);
    const asked = started();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(started()).toBe(asked);
  });

  it('after a cancelled payment, says nothing was charged and leads home', async () => {
    const onNavigate = vi.fn();
    await renderInApp(<PayResultPage status="cancel" onNavigate={onNavigate} />, { apiBase: server.url, user: testUser });
    expect(screen.getByTestId('pay-cancel')).toHaveTextContent('you were not charged');
    await userEvent.click(screen.getAllByRole('button', { name: 'Back to home' }).at(-1)!);
    expect(onNavigate).toHaveBeenCalledWith('/');
    await userEvent.click(screen.getByRole('button', { name: 'See plans' }));
    expect(onNavigate).toHaveBeenCalledWith('/pricing');
    expect(userCalls()).toHaveLength(0);
  });

  it('shows the success page with a back bar on a narrow screen', async () => {
    freeAnswers = 0;
    const onNavigate = vi.fn();
    await renderInApp(<PayResultPage status="success" onNavigate={onNavigate} poll={FAST} />, { apiBase: server.url, user: testUser, platform: { isH5: true, scene: 'h5' } });
    await screen.findByTestId('plan-active');
    const bar = screen.getByTestId('plans-back-bar');
    expect(bar).toHaveTextContent('Payment complete');
    await userEvent.click(screen.getAllByRole('button', { name: 'Back to home' })[0]!);
    expect(onNavigate).toHaveBeenCalledWith('/');
    await waitFor(() => expect(userCalls()).toHaveLength(1));
  });
});
