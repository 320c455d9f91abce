import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CampaignsPage } from '../../../admin/campaigns/campaigns-page.tsx';
import { SaveCampaignSchema, type AdminCampaign } from '../../../shared/contracts/campaigns.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp } from '../../helpers/render-app.tsx';
import { prepareDataTables } from '../shell/datatable-env.ts';

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };

const campaign = (fields: Partial<AdminCampaign>): AdminCampaign => ({
  campaignId: 'c1',
  titleEn: 'Spring sale',
  titleZh: '春季促销',
  bodyEn: '',
  bodyZh: '',
  imageUrl: null,
  startTime: '2026-12-01T00:00:00.000Z',
  endTime: '2026-12-31T00:00:00.000Z',
  planLevels: [0],
  language: 'all',
  newUserDays: null,
  rewardType: 'points',
  rewardPoints: 50,
  rewardCouponId: null,
  rewardCouponCode: null,
  maxClaims: 100,
  status: 'active',
  views: 120,
  dismissals: 4,
  claims: 30,
  pointsCost: 1500,
  couponRedemptions: 0,
  couponDiscounts: {},
  createTime: '2026-11-30T00:00:00.000Z',
  updateTime: '2026-11-30T00:00:00.000Z',
  ...fields,
});

let campaigns: AdminCampaign[];

/** The admin MarketActivity routes over an in-memory list; Save is checked with the real contract, as the server does. */
const server = serveTheseTests(
  fakeApi({
    '/api/admin/MarketActivity/GetList': (_req, res) => sendEnvelope(res, { Code: 10000, Data: { list: campaigns, total: campaigns.length } }),
    '/api/admin/MarketActivity/Save': (req, res) => {
      const body = SaveCampaignSchema.parse(JSON.parse(req.body));
      const saved = campaign({ ...body, campaignId: body.campaignId ?? `c${campaigns.length + 1}`, status: 'scheduled', views: 0, claims: 0, pointsCost: 0, dismissals: 0 } as Partial<AdminCampaign>);
      campaigns = [saved, ...campaigns.filter((c) => c.campaignId !== saved.campaignId)];
      sendEnvelope(res, { Code: 10000, Data: saved });
    },
    '/api/admin/MarketActivity/End': (req, res) => {
      const { campaignId } = JSON.parse(req.body) as { campaignId: string };
      campaigns = campaigns.map((c) => (c.campaignId === campaignId ? { ...c, status: 'ended' } : c));
      sendEnvelope(res, { Code: 10000, Data: campaigns.find((c) => c.campaignId === campaignId) });
    },
    '/api/admin/MarketActivity/GetClaimList': (_req, res) =>
      sendEnvelope(res, { Code: 10000, Data: { list: [{ userId: 'u1', email: 'ann@example.com', userName: 'Ann', rewardType: 'points', points: 50, couponCode: null, claimTime: '2026-12-02T10:00:00.000Z' }], total: 1 } }),
    '/api/admin/Coupons/GetList': (_req, res) => sendEnvelope(res, { Code: 10000, Data: { list: [], total: 0 } }),
  }),
);
const sent = (path: string) => server.requests.filter((r) => r.url === path).map((r) => JSON.parse(r.body) as Record<string, unknown>);
const rowOf = async (name: string) => (await screen.findByText(name, { selector: 'td, td *' })).closest('tr')!;

beforeAll(() => {
  prepareDataTables();
  Element.prototype.scrollIntoView = () => undefined;
});
afterAll(() => {
  delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
});
beforeEach(() => {
  campaigns = [campaign({})];
});

describe('the console: campaigns', () => {
  it('lists each campaign with its audience, reward, views, claims and cost', async () => {
    await renderInApp(<CampaignsPage />, { apiBase: server.url, user: admin });
    const row = await rowOf('Spring sale');
    expect(within(row).getByText('春季促销')).toBeInTheDocument();
    expect(within(row).getByText('Free')).toBeInTheDocument();
    expect(within(row).getByText('50 points')).toBeInTheDocument();
    expect(within(row).getByText('120 (4 hidden)')).toBeInTheDocument();
    expect(within(row).getByText('30 / 100')).toBeInTheDocument();
    expect(within(row).getByText('1500 points')).toBeInTheDocument();
    expect(within(row).getByText('Running')).toBeInTheDocument();
  });

  // A long form typed key by key: slow on a busy machine.
  it('refuses a points reward without points, then saves the campaign', { timeout: 90_000 }, async () => {
    await renderInApp(<CampaignsPage />, { apiBase: server.url, user: admin });
    await rowOf('Spring sale');
    await userEvent.click(screen.getByRole('button', { name: 'New campaign' }));
    const dialog = await screen.findByRole('dialog', { name: 'New campaign' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Title \(English\)/ }), 'Welcome gift');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Title \(Chinese\)/ }), '新人礼');
    await userEvent.click(within(dialog).getByLabelText('Reward', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Points', hidden: true }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Give the points a claim credits.')).toBeInTheDocument();
    expect(sent('/api/admin/MarketActivity/Save')).toEqual([]);

    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Points per claim/ }), '20');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New campaign' })).toBeNull());
    expect(sent('/api/admin/MarketActivity/Save')).toEqual([
      expect.objectContaining({ titleEn: 'Welcome gift', titleZh: '新人礼', rewardType: 'points', rewardPoints: 20, rewardCouponId: null, maxClaims: null, language: 'all' }),
    ]);
    expect(await rowOf('Welcome gift')).toBeTruthy();
  });

  it('ends a campaign early, and shows who claimed it', async () => {
    await renderInApp(<CampaignsPage />, { apiBase: server.url, user: admin });
    await userEvent.click(within(await rowOf('Spring sale')).getByRole('button', { name: 'Claims' }));
    const dialog = await screen.findByRole('dialog', { name: 'Claims of "Spring sale"' });
    expect(await within(dialog).findByText('Ann <ann@example.com>')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Claims of "Spring sale"' })).toBeNull());

    await userEvent.click(within(await rowOf('Spring sale')).getByRole('button', { name: 'End now' }));
    await waitFor(() => expect(sent('/api/admin/MarketActivity/End')).toEqual([{ campaignId: 'c1' }]));
    expect(await within(await rowOf('Spring sale')).findByText('Ended')).toBeInTheDocument();
  });
});
