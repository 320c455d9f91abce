import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { PointsSection } from '../../../components/points/points-section.tsx';
import type { IntegralEntry } from '../../../shared/contracts/user.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/** Tomorrow at `hour`:00 in the test's own time zone, as the server answers an instant. */
function tomorrowAt(hour: number): string {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, hour, 0).toISOString();
}

/** The account's points as GetUserIntegralByLogin answers them. */
let points: IntegralEntry;

const server = serveTheseTests(
  fakeApi({
    '/api/User/GetUserIntegralByLogin': (_req, res) => sendEnvelope(res, { Code: 10000, Data: [points] }),
    '/api/User/IsUserSignin': answer({ signedIn: true, streak: 1, points: 10, today: '2026-11-25' }),
    '/api/User/GetUserIntegralLogList': answer({ list: [], total: 0 }),
  }),
);
beforeEach(() => {
  points = { integralType: 1, integralValue: 1540, useIntegral: 60, freeLeft: 40, freeDaily: 100, freeResetsAt: tomorrowAt(0), kept: 1500 };
});

const section = () => within(screen.getByTestId('points-section'));

describe('PointsSection: the balance', () => {
  it('shows one balance, what can be spent now, with today\'s free points, when they reset, and the points kept beside it', async () => {
    await renderInApp(<PointsSection />, { apiBase: server.url, user: testUser });
    expect(await screen.findByTestId('points-balance')).toHaveTextContent(/^1,540 points$/);
    expect(screen.getByTestId('points-free')).toHaveTextContent(/^40 of 100 free left today · resets at midnight$/);
    expect(screen.getByTestId('points-kept')).toHaveTextContent(/^1,500 points kept$/);
    // One number of points for the balance: no other total, no spent count.
    expect(section().getAllByText(/^[\d,]+ points$/)).toHaveLength(1);
    expect(screen.getByTestId('points-section')).not.toHaveTextContent(/spent/);
  });

  it('says the local time the allowance resets when the server\'s day turns at another hour, and leaves out nothing kept', async () => {
    points = { integralType: 1, integralValue: 100, useIntegral: 0, freeLeft: 100, freeDaily: 100, freeResetsAt: tomorrowAt(8), kept: 0 };
    await renderInApp(<PointsSection />, { apiBase: server.url, user: testUser });
    expect(await screen.findByTestId('points-balance')).toHaveTextContent(/^100 points$/);
    expect(screen.getByTestId('points-free')).toHaveTextContent(/^100 free today · resets at 8:00\sAM$/);
    expect(screen.queryByTestId('points-kept')).toBeNull();
  });

  it('shows no allowance where the server gives none', async () => {
    points = { integralType: 1, integralValue: 20, useIntegral: 0, freeLeft: 0, freeDaily: 0, freeResetsAt: tomorrowAt(0), kept: 20 };
    await renderInApp(<PointsSection />, { apiBase: server.url, user: testUser });
    expect(await screen.findByTestId('points-kept')).toHaveTextContent(/^20 points kept$/);
    expect(screen.queryByTestId('points-free')).toBeNull();
  });

  it('in Chinese', async () => {
    await renderInApp(<PointsSection />, { apiBase: server.url, user: testUser });
    await setLanguage('zh');
    expect(await screen.findByTestId('points-balance')).toHaveTextContent(/^1,540 积分$/);
    expect(screen.getByTestId('points-free')).toHaveTextContent(/^今日免费积分剩 40\/100 · 零点重置$/);
    expect(screen.getByTestId('points-kept')).toHaveTextContent(/^长期积分 1,500$/);
  });

  it('shows the whole alone from a server that does not tell its parts', async () => {
    points = { integralType: 1, integralValue: 100, useIntegral: 0 };
    await renderInApp(<PointsSection />, { apiBase: server.url, user: testUser });
    expect(await screen.findByTestId('points-balance')).toHaveTextContent(/^100 points$/);
    expect(screen.getByText("Available, today's free allowance included")).toBeInTheDocument();
    expect(screen.queryByTestId('points-free')).toBeNull();
  });
});
