import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { PointsHistory } from '../../../components/points/points-history.tsx';
import { LedgerKindSchema, type LedgerEntry } from '../../../shared/contracts/points.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { answer, fakeApi, serveTheseTests, type Route } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

const LABELS: Record<string, string> = {
  message: 'Message',
  plugin: 'Plugin',
  draw: 'Image',
  checkin: 'Daily check-in',
  redeem: 'Redeem code',
  invite: 'Invite reward',
  plan: 'Plan',
  admin: 'Adjustment',
  refund: 'Refund',
  expiry: 'Expired',
  opening: 'Opening balance',
  settle: 'Usage settlement',
  campaign: 'Campaign reward',
  translate: 'Translation',
};

/**
 * One entry of each kind, newest first, a minute apart: the message took 2 points of today's free
 * allowance and 1 kept, the plugin 3 free; the refund gave 3 back to today's free points; the plan
 * added 1,000 kept.
 */
const ENTRIES: LedgerEntry[] = LedgerKindSchema.options.map((kind, i) => ({
  id: `e${i}`,
  kind,
  delta: kind === 'message' ? -1 : ['plugin', 'refund'].includes(kind) ? 0 : ['draw', 'expiry'].includes(kind) ? -5 : kind === 'plan' ? 1000 : 10 + i,
  allowance: kind === 'message' ? 2 : kind === 'plugin' ? 3 : kind === 'refund' ? -3 : 0,
  balanceAfter: kind === 'opening' ? null : kind === 'plan' ? 1500 : 500 - i,
  note: kind === 'redeem' ? 'Spring promo' : kind === 'admin' ? 'Sorry for the outage' : '',
  refId: null,
  createTime: new Date(Date.UTC(2026, 10, 20, 12, 30 - i)).toISOString(),
}));

const pages: Route = (_req, res, url) => {
  const page = Number(url.searchParams.get('page'));
  const count = Number(url.searchParams.get('count'));
  sendEnvelope(res, { Code: 10000, Data: { list: ENTRIES.slice((page - 1) * count, page * count), total: ENTRIES.length } });
};

const server = serveTheseTests(fakeApi({ '/api/User/GetUserIntegralLogList': pages }));

const historyRequests = () => server.requests.filter((r) => r.url.startsWith('/api/User/GetUserIntegralLogList')).map((r) => new URL(r.url, 'http://x').searchParams);

describe('PointsHistory', () => {
  it('shows each kind with its label, time, note, change, the part of the points it moved and the points kept after, a page at a time', async () => {
    await renderInApp(<PointsHistory />, { apiBase: server.url, user: testUser });
    expect(screen.getByLabelText('Loading points')).toBeInTheDocument();
    const list = await screen.findByTestId('points-history');
    const rows = () => within(screen.getByTestId('points-history')).getAllByRole('listitem');
    expect(rows()).toHaveLength(10);
    expect(historyRequests()[0].get('page')).toBe('1');
    expect(historyRequests()[0].get('count')).toBe('10');

    const row = (kind: string) => rows().find((r) => r.dataset.kind === kind)!;
    for (const entry of ENTRIES.slice(0, 10)) expect(row(entry.kind)).toHaveTextContent(LABELS[entry.kind]);
    const delta = (kind: string) => within(row(kind)).getByTestId('points-delta');
    const parts = (kind: string) => within(row(kind)).getByTestId('points-parts');
    // A message of 3 points: 2 from today's free allowance, 1 from the points kept.
    expect(delta('message')).toHaveTextContent(/^\u22123$/);
    expect(parts('message')).toHaveTextContent(/^\u22122 free, \u22121 kept$/);
    // Covered by the allowance whole.
    expect(delta('plugin')).toHaveTextContent(/^\u22123$/);
    expect(parts('plugin')).toHaveTextContent(/^from today's free points$/);
    expect(delta('refund')).toHaveTextContent(/^\+3$/);
    expect(parts('refund')).toHaveTextContent(/^back to today's free points$/);
    expect(delta('checkin')).toHaveTextContent(/^\+13$/);
    expect(parts('checkin')).toHaveTextContent(/^to kept points$/);
    expect(delta('plan')).toHaveTextContent(/^\+1,000$/);
    expect(row('plan')).toHaveTextContent('1,500 kept after');
    expect(delta('draw')).toHaveTextContent(/^\u22125$/);
    expect(parts('draw')).toHaveTextContent(/^from kept points$/);
    expect(row('redeem')).toHaveTextContent('Spring promo');
    expect(row('redeem')).toHaveTextContent(`${ENTRIES[4].balanceAfter} kept after`);
    expect(row('message')).toHaveTextContent(dayjs(ENTRIES[0].createTime).format('YYYY-MM-DD HH:mm'));
    expect(list).not.toHaveTextContent('Opening balance');

    // The second page holds the four oldest entries: the opening one, whose balance after is not
    // known, a token-priced message's settlement, a campaign's reward and a translation.
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(row('opening')).toHaveTextContent('Opening balance');
    expect(row('opening')).not.toHaveTextContent('kept after');
    expect(row('settle')).toHaveTextContent('Usage settlement');
    expect(row('campaign')).toHaveTextContent('Campaign reward');
    expect(row('translate')).toHaveTextContent('Translation');
    expect(historyRequests().at(-1)!.get('page')).toBe('2');
  });

  it('names the part each entry moved in Chinese', async () => {
    await renderInApp(<PointsHistory />, { apiBase: server.url, user: testUser });
    await screen.findByTestId('points-history');
    await setLanguage('zh');
    const row = (kind: string) => within(screen.getByTestId('points-history')).getAllByRole('listitem').find((r) => r.dataset.kind === kind)!;
    await waitFor(() => expect(within(row('message')).getByTestId('points-parts')).toHaveTextContent(/^免费 \u22122，长期 \u22121$/));
    expect(within(row('plugin')).getByTestId('points-parts')).toHaveTextContent(/^来自今日免费积分$/);
    expect(within(row('refund')).getByTestId('points-parts')).toHaveTextContent(/^退回今日免费积分$/);
    expect(within(row('plan')).getByTestId('points-parts')).toHaveTextContent(/^计入长期积分$/);
    expect(row('plan')).toHaveTextContent('此后长期积分 1,500');
  });

  it('says when there is nothing yet', async () => {
    server.handle(fakeApi({ '/api/User/GetUserIntegralLogList': answer({ list: [], total: 0 }) }));
    await renderInApp(<PointsHistory />, { apiBase: server.url, user: testUser });
    expect(await screen.findByText('No points activity yet.')).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('shows a failure with a retry that loads it', async () => {
    let fail = true;
    server.handle(
      fakeApi({
        '/api/User/GetUserIntegralLogList': (req, res, url) =>
          fail ? sendEnvelope(res, { Code: 10400, Msg: 'bad' }) : pages(req, res, url),
      }),
    );
    await renderInApp(<PointsHistory />, { apiBase: server.url, user: testUser });
    expect(await screen.findByText('Could not load the points history.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('points-history')).toBeInTheDocument();
  });
});
