import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useFreshUserInfo } from '../../../components/app-shell/account.ts';
import { PointsSection } from '../../../components/points/points-section.tsx';
import { PromoCodeDialog } from '../../../components/points/promo-code-dialog.tsx';
import { userInfoAtom } from '../../../shared/atoms/auth.ts';
import type { UserInfo } from '../../../shared/contracts/user.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { createGate, sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

const REFUSED = 'Use failed, please check if the redemption code is correct';
const gate = createGate();

/** The account: after the redeem, 500 points more and an Advanced plan. */
let redeemed = false;
const user = (): UserInfo =>
  redeemed ? { ...testUser, vipOrder: { vipOrderId: 'o1', vipPackageLevel: 2, vipPackageName: 'Advanced', endTime: '2027-01-01' } } : testUser;

const server = serveTheseTests(
  fakeApi({
    '/api/User/RedeemCode': async (req, res) => {
      await gate.wait();
      const { code } = JSON.parse(req.body) as { code: string };
      if (code !== 'abcd-efgh-jkmn-pqrs') return sendEnvelope(res, { Code: 10400, Msg: REFUSED });
      redeemed = true;
      sendEnvelope(res, { Code: 10000, Data: { kind: 'both', points: 500, planDays: 30, planLevel: 2, balance: 600 } });
    },
    // What a code is, as the server tells it without using it: one redeem code, one coupon, the rest unknown.
    '/api/User/CheckPromoCode': (req, res) => {
      const code = (JSON.parse(req.body) as { code: string }).code.toUpperCase();
      sendEnvelope(res, { Code: 10000, Data: { kind: code === 'ABCD-EFGH-JKMN-PQRS' ? 'redeem' : code === 'SPRING20' ? 'coupon' : 'unknown' } });
    },
    '/api/Coupons/CheckCoupon': answer({ valid: true, percentOff: 20, duration: 'once', appliesTo: ['adv-year'], validTo: null, message: '20% off the first payment.' }),
    '/api/User/GetUserByLogin': (_req, res) => sendEnvelope(res, { Code: 10000, Data: user() }),
    '/api/User/GetUserIntegralByLogin': (_req, res) =>
      sendEnvelope(res, { Code: 10000, Data: [{ integralType: 1, integralValue: redeemed ? 600 : 100, useIntegral: 0 }] }),
    '/api/User/IsUserSignin': answer({ signedIn: true, streak: 1, points: 10, today: '2026-11-25' }),
    '/api/User/GetUserIntegralLogList': answer({ list: [], total: 0 }),
  }),
);
beforeEach(() => {
  redeemed = false;
  gate.reset();
});

/** The dialog as the app has it: the user-info query of the layout is running beside it. */
function WithUserInfo({ onClose = () => {} }: { onClose?: () => void }) {
  useFreshUserInfo();
  return <PromoCodeDialog opened onClose={onClose} />;
}

const redeemRequests = () => server.requests.filter((r) => r.url.startsWith('/api/User/RedeemCode'));
const userRequests = () => server.requests.filter((r) => r.url.startsWith('/api/User/GetUserByLogin'));

describe('PromoCodeDialog', () => {
  it('sends the trimmed code on Enter, is disabled while sending, says what was received and shows the plan at once', async () => {
    const { store } = await renderInApp(<WithUserInfo />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(userRequests()).toHaveLength(1));
    const input = await screen.findByRole('textbox', { name: 'Code' });
    const release = gate.hold();
    await userEvent.type(input, '  abcd-efgh-jkmn-pqrs  {Enter}');
    await waitFor(() => expect(redeemRequests()).toHaveLength(1));
    expect(JSON.parse(redeemRequests()[0].body)).toEqual({ code: 'abcd-efgh-jkmn-pqrs' });
    // While sending: no second submit, the field is disabled and the button busy.
    expect(input).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Redeem' })).toHaveAttribute('data-loading', 'true');
    await userEvent.type(input, '{Enter}');
    release();

    expect(await screen.findByTestId('redeem-success')).toHaveTextContent('You received 500 points and 30 days of the Advanced plan.');
    expect(redeemRequests()).toHaveLength(1);
    expect(input).toHaveValue('');
    // The user is read again: the plan the code granted shows on every surface.
    await waitFor(() => expect(store.get(userInfoAtom)?.vipOrder?.vipPackageName).toBe('Advanced'));
    expect(userRequests()).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Done' })).toBeInTheDocument();
  });

  it("shows the server's message when a code is refused, and asks for a code when there is none", async () => {
    await renderInApp(<WithUserInfo />, { apiBase: server.url, user: testUser });
    const input = await screen.findByRole('textbox', { name: 'Code' });
    await userEvent.click(screen.getByRole('button', { name: 'Redeem' }));
    expect(await screen.findByText('Enter a code')).toBeInTheDocument();
    expect(redeemRequests()).toHaveLength(0);

    await userEvent.type(input, 'WRONG-CODE{Enter}');
    expect(await screen.findByTestId('redeem-error')).toHaveTextContent(REFUSED);
    expect(input).toHaveValue('WRONG-CODE');
    expect(input).not.toBeDisabled();
  });

  it('tells a coupon apart: says what it takes off, redeems nothing, and leads to the plans with it', async () => {
    await renderInApp(<WithUserInfo />, { apiBase: server.url, user: testUser });
    await userEvent.type(await screen.findByRole('textbox', { name: 'Code' }), 'spring20{Enter}');
    const found = await screen.findByTestId('coupon-found');
    expect(found).toHaveTextContent('SPRING20 is a coupon');
    expect(found).toHaveTextContent('20% off the first payment.');
    expect(redeemRequests()).toHaveLength(0);
    expect(screen.queryByTestId('redeem-success')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Use it on the plans page' }));
    await waitFor(() => expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toContain('/pricing?coupon=spring20'));
  });

  it('closes with Cancel', async () => {
    const onClose = vi.fn();
    await renderInApp(<WithUserInfo onClose={onClose} />, { apiBase: server.url, user: testUser });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
  });
});

describe('PointsSection', () => {
  it('shows the balance, opens the promo-code dialog and shows the new balance after a redeem', async () => {
    await renderInApp(<PointsSection />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(screen.getByTestId('points-balance')).toHaveTextContent('100 points'));
    expect(screen.getByText("Available, today's free allowance included")).toBeInTheDocument();
    expect(await screen.findByText('No points activity yet.')).toBeInTheDocument();
    expect(screen.getByText('Checked in')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Redeem a code' }));
    await userEvent.type(await screen.findByRole('textbox', { name: 'Code' }), 'abcd-efgh-jkmn-pqrs{Enter}');
    await screen.findByTestId('redeem-success');
    await waitFor(() => expect(screen.getByTestId('points-balance')).toHaveTextContent('600 points'));
  });

  it('shows nothing to a visitor', async () => {
    const { container } = await renderInApp(<PointsSection />, { apiBase: server.url, user: null });
    expect(container.querySelector('[data-testid="points-section"]')).toBeNull();
  });
});
