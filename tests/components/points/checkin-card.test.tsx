import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { CheckinCard } from '../../../components/points/checkin-card.tsx';
import type { CheckinStatus } from '../../../shared/contracts/points.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

const ALREADY = 'You have already checked in today. Come back tomorrow.';

/** The server's check-in state: today done or not, the streak before today. */
let state: { signedIn: boolean; streak: number; balance: number };
const status = (): CheckinStatus => ({ signedIn: state.signedIn, streak: state.streak, points: 10, today: '2026-11-25' });

const server = serveTheseTests(
  fakeApi({
    '/api/User/IsUserSignin': (_req, res) => sendEnvelope(res, { Code: 10000, Data: status() }),
    '/api/User/UserSignin': (_req, res) => {
      if (state.signedIn) return sendEnvelope(res, { Code: 10409, Msg: ALREADY });
      state = { signedIn: true, streak: state.streak + 1, balance: state.balance + 10 };
      sendEnvelope(res, { Code: 10000, Data: status() });
    },
    '/api/User/GetUserIntegralByLogin': (_req, res) =>
      sendEnvelope(res, { Code: 10000, Data: [{ integralType: 1, integralValue: state.balance, useIntegral: 0 }] }),
  }),
);
beforeEach(() => {
  state = { signedIn: false, streak: 2, balance: 100 };
});

const requests = (path: string) => server.requests.filter((r) => r.url.startsWith(path));

describe('CheckinCard', () => {
  it('shows nothing to a visitor', async () => {
    const { container } = await renderInApp(<CheckinCard home />, { apiBase: server.url, user: null });
    expect(container.querySelector('[data-testid="checkin-card"]')).toBeNull();
    expect(server.requests).toHaveLength(0);
  });

  it('checks in with the browser time zone, says what it earned and shows the new balance', async () => {
    state = { signedIn: false, streak: 2, balance: 1200 };
    await renderInApp(<CheckinCard home />, { apiBase: server.url, user: testUser });
    const button = await screen.findByRole('button', { name: 'Check in +10' });
    expect(screen.getByTestId('checkin-streak')).toHaveTextContent('2-day streak · today +10');
    // The number as the language writes it.
    await waitFor(() => expect(screen.getByTestId('checkin-balance')).toHaveTextContent(/^Balance 1,200$/));
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(new URL(requests('/api/User/IsUserSignin')[0].url, 'http://x').searchParams.get('timeZone')).toBe(zone);

    await userEvent.click(button);
    expect(await screen.findByText('+10 points, 3-day streak')).toBeInTheDocument();
    expect(JSON.parse(requests('/api/User/UserSignin')[0].body)).toEqual({ timeZone: zone });
    expect(screen.getByTestId('checkin-card')).toHaveAttribute('data-done', 'true');
    expect(screen.getByText('Checked in')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Check in/ })).toBeNull();
    expect(screen.getByTestId('checkin-streak')).toHaveTextContent('3-day streak · earned 10 today');
    // The balance is read again.
    await waitFor(() => expect(screen.getByTestId('checkin-balance')).toHaveTextContent(/^Balance 1,210$/));
    expect(requests('/api/User/GetUserIntegralByLogin').length).toBeGreaterThanOrEqual(2);
  });

  it('shows the done state with the streak when today is done', async () => {
    state = { signedIn: true, streak: 1, balance: 50 };
    await renderInApp(<CheckinCard />, { apiBase: server.url, user: testUser });
    expect(await screen.findByText('Checked in')).toBeInTheDocument();
    expect(screen.getByTestId('checkin-streak')).toHaveTextContent('1-day streak · earned 10 today');
    expect(screen.queryByRole('button', { name: /Check in/ })).toBeNull();
    // Outside the chat home the balance is shown by the section, not the card.
    expect(screen.queryByTestId('checkin-balance')).toBeNull();
  });

  it('shows the server message of a second check-in (10409), then the day as done', async () => {
    await renderInApp(<CheckinCard />, { apiBase: server.url, user: testUser });
    const button = await screen.findByRole('button', { name: 'Check in +10' });
    // Done meanwhile in another tab.
    state = { signedIn: true, streak: 3, balance: 110 };
    await userEvent.click(button);
    expect(await screen.findByTestId('checkin-error')).toHaveTextContent(ALREADY);
    await waitFor(() => expect(screen.getByTestId('checkin-card')).toHaveAttribute('data-done', 'true'));
    expect(screen.getByTestId('checkin-error')).toHaveTextContent(ALREADY);
  });

  it("falls back to 'Check-in failed' when the server gives no message", async () => {
    server.handle(
      fakeApi({
        '/api/User/IsUserSignin': (_req, res) => sendEnvelope(res, { Code: 10000, Data: status() }),
        '/api/User/UserSignin': (_req, res) => sendEnvelope(res, { Code: 10400 }),
        '/api/User/GetUserIntegralByLogin': (_req, res) => sendEnvelope(res, { Code: 10000, Data: [] }),
      }),
    );
    await renderInApp(<CheckinCard />, { apiBase: server.url, user: testUser });
    await userEvent.click(await screen.findByRole('button', { name: 'Check in +10' }));
    expect(await screen.findByTestId('checkin-error')).toHaveTextContent('Check-in failed');
  });
});
