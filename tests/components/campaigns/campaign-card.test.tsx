import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CampaignCards } from '../../../components/campaigns/campaign-card.tsx';
import { CampaignsPage } from '../../../components/campaigns/campaigns-page.tsx';
import type { Campaign } from '../../../shared/contracts/campaigns.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

const points: Campaign = {
  campaignId: 'c-points',
  title: 'Spring sale',
  body: 'Points for everyone',
  imageUrl: null,
  startTime: '2026-12-01T00:00:00.000Z',
  endTime: '2026-12-31T00:00:00.000Z',
  rewardType: 'points',
  rewardPoints: 50,
  rewardText: null,
  claimsLeft: 10,
  dismissed: false,
  claim: null,
};
const coupon: Campaign = { ...points, campaignId: 'c-coupon', title: 'Coupon week', rewardType: 'coupon', rewardPoints: null, rewardText: 'A coupon: 25% off a plan', claimsLeft: null };

/** The fake server's campaigns: a claim, a dismissal and a view change what it answers next, as the real one. */
function fakeCampaigns(list: Campaign[], claimAnswer: (id: string) => { Code: number; Msg?: string; Data?: unknown }) {
  let campaigns = list.map((c) => ({ ...c }));
  return fakeApi({
    '/api/MarketActivity/GetList': (_req, res, url) =>
      sendEnvelope(res, { Code: 10000, Data: url.searchParams.get('all') === 'true' ? campaigns : campaigns.filter((c) => !c.dismissed) }),
    '/api/MarketActivity/View': answer({ counted: true }),
    '/api/MarketActivity/Dismiss': (req, res) => {
      const { campaignId } = JSON.parse(req.body) as { campaignId: string };
      campaigns = campaigns.map((c) => (c.campaignId === campaignId ? { ...c, dismissed: true } : c));
      sendEnvelope(res, { Code: 10000, Data: null });
    },
    '/api/MarketActivity/Claim': (req, res) => {
      const { campaignId } = JSON.parse(req.body) as { campaignId: string };
      const envelope = claimAnswer(campaignId);
      if (envelope.Code === 10000) campaigns = campaigns.map((c) => (c.campaignId === campaignId ? { ...c, claim: envelope.Data as Campaign['claim'] } : c));
      sendEnvelope(res, envelope);
    },
  });
}

const claimed = (id: string) =>
  id === 'c-points'
    ? { Code: 10000, Data: { rewardType: 'points', points: 50, couponCode: null, balance: 150, claimTime: '2026-12-07T10:00:00.000Z' } }
    : { Code: 10000, Data: { rewardType: 'coupon', points: null, couponCode: 'SPRING25', balance: null, claimTime: '2026-12-07T10:00:00.000Z' } };

const server = serveTheseTests(fakeCampaigns([points, coupon], claimed));
const calls = (path: string) => server.requests.filter((r) => r.url.startsWith(path));
const card = (title: string) => screen.getAllByTestId('campaign-card').find((c) => within(c).queryByText(title))!;

describe('the campaign cards of the home screen and the popup', () => {
  it('shows a visitor nothing, and asks the server nothing', async () => {
    await renderInApp(<CampaignCards />, { apiBase: server.url, user: null });
    expect(screen.queryByTestId('campaign-cards')).toBeNull();
    expect(calls('/api/MarketActivity')).toHaveLength(0);
  });

  it('shows the campaigns, records each view, and claims points with the result on the card', async () => {
    await renderInApp(<CampaignCards />, { apiBase: server.url, user: testUser });
    expect(await screen.findByText('Spring sale')).toBeInTheDocument();
    expect(within(card('Spring sale')).getByText(/Reward: 50 points · 10 left/)).toBeInTheDocument();
    await waitFor(() => expect(calls('/api/MarketActivity/View').map((r) => JSON.parse(r.body).campaignId).sort()).toEqual(['c-coupon', 'c-points']));

    await userEvent.click(within(card('Spring sale')).getByRole('button', { name: 'Claim 50 points' }));
    await waitFor(() => expect(within(card('Spring sale')).getByTestId('campaign-claimed')).toHaveTextContent('Claimed: +50 points'));
    expect(within(card('Spring sale')).queryByTestId('campaign-claim')).toBeNull();
  });

  it('hands out a coupon code to copy', async () => {
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await renderInApp(<CampaignCards />, { apiBase: server.url, user: testUser });
    await screen.findByText('Coupon week');
    expect(within(card('Coupon week')).getByText(/A coupon: 25% off a plan/)).toBeInTheDocument();
    await userEvent.click(within(card('Coupon week')).getByRole('button', { name: 'Claim' }));
    await waitFor(() => expect(within(card('Coupon week')).getByTestId('campaign-claimed')).toHaveTextContent('Your coupon code: SPRING25'));
    await userEvent.click(within(card('Coupon week')).getByRole('button', { name: 'Copy code' }));
    expect(writeText).toHaveBeenCalledWith('SPRING25');
    delete (navigator as { clipboard?: unknown }).clipboard;
  });

  it("shows a refused claim in the server's words", async () => {
    server.handle(fakeCampaigns([points], () => ({ Code: 10400, Msg: 'All the rewards of this campaign have been claimed.' })));
    await renderInApp(<CampaignCards />, { apiBase: server.url, user: testUser });
    await userEvent.click(await screen.findByRole('button', { name: 'Claim 50 points' }));
    expect(await screen.findByTestId('campaign-claim-error')).toHaveTextContent('All the rewards of this campaign have been claimed.');
  });

  it('hides a dismissed card; the campaigns page still lists it', async () => {
    await renderInApp(<CampaignCards />, { apiBase: server.url, user: testUser });
    await screen.findByText('Spring sale');
    await userEvent.click(within(card('Spring sale')).getByRole('button', { name: 'Hide this card' }));
    await waitFor(() => expect(screen.queryByText('Spring sale')).toBeNull());
    expect(JSON.parse(calls('/api/MarketActivity/Dismiss')[0]!.body)).toEqual({ campaignId: 'c-points' });
    expect(screen.getByText('Coupon week')).toBeInTheDocument();
  });

  it('the campaigns page lists hidden ones too, in Chinese on a narrow screen', async () => {
    server.handle(fakeCampaigns([{ ...points, dismissed: true, title: '春季促销' }], claimed));
    const onBack = vi.fn();
    await renderInApp(<CampaignsPage onBack={onBack} />, { apiBase: server.url, user: testUser, platform: { isH5: true, scene: 'h5' } });
    await setLanguage('zh');
    expect(await screen.findByText('春季促销')).toBeInTheDocument();
    expect(screen.getByText('已从首页隐藏')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '领取 50 积分' })).toBeInTheDocument();
    expect(calls('/api/MarketActivity/GetList').some((r) => r.url.includes('all=true'))).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: '返回聊天' }));
    expect(onBack).toHaveBeenCalled();
  });
});
