import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { PointsHistory } from '../../../components/points/points-history.tsx';
import { LedgerKindSchema, type LedgerEntry } from '../../../shared/contracts/points.ts';
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
};

/** One entry of each kind, newest first, a minute apart; the message took 2 points of the free allowance. */
const ENTRIES: LedgerEntry[] = LedgerKindSchema.options.map((kind, i) => ({
  id: `e${i}`,
  kind,
  delta: kind === 'message' ? -1 : kind === 'plugin' ? 0 : ['draw', 'expiry'].includes(kind) ? -5 : 10 + i,
  allowance: kind === 'message' ? 2 : kind === 'plugin' ? 3 : 0,
  balanceAfter: kind === 'opening' ? null : 500 - i,
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
  it('shows each kind with its label, time, note, change, free allowance and balance after, a page at a time', async () => {
    await renderInApp(<PointsHistory />, { apiBase: server.url, user: testUser });
    expect(screen.getByLabelText('Loading points')).toBeInTheDocument();
    const list = await screen.findByTestId('points-history');
    const rows = () => within(screen.getByTestId('points-history')).getAllByRole('listitem');
    expect(rows()).toHaveLength(10);
    expect(historyRequests()[0].get('page')).toBe('1');
    expect(historyRequests()[0].get('count')).toBe('10');

    const row = (kind: string) => rows().find((r) => r.dataset.kind === kind)!;
    for (const entry of ENTRIES.slice(0, 10)) expect(row(entry.kind)).toHaveTextContent(LABELS[entry.kind]);
    // A message of 3 points: 1 from the balance, 2 from the free allowance.
    expect(within(row('message')).getByTestId('points-delta')).toHaveTextContent('\u22121');
    expect(within(row('message')).getByTestId('points-allowance')).toHaveTextContent('\u22122 free allowance');
    // Covered by the allowance whole: only the allowance part is shown.
    expect(within(row('plugin')).queryByTestId('points-delta')).toBeNull();
    expect(within(row('plugin')).getByTestId('points-allowance')).toHaveTextContent('\u22123 free allowance');
    expect(within(row('checkin')).getByTestId('points-delta')).toHaveTextContent('+13');
    expect(within(row('checkin')).queryByTestId('points-allowance')).toBeNull();
    expect(within(row('draw')).getByTestId('points-delta')).toHaveTextContent('\u22125');
    expect(row('redeem')).toHaveTextContent('Spring promo');
    expect(row('redeem')).toHaveTextContent(`Balance ${ENTRIES[4].balanceAfter}`);
    expect(row('message')).toHaveTextContent(dayjs(ENTRIES[0].createTime).format('YYYY-MM-DD HH:mm'));
    expect(list).not.toHaveTextContent('Opening balance');

    // The second page holds the two oldest entries: the opening one, whose balance after is not
    // known, and a token-priced message's settlement.
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(row('opening')).toHaveTextContent('Opening balance');
    expect(row('opening')).not.toHaveTextContent('Balance');
    expect(row('settle')).toHaveTextContent('Usage settlement');
    expect(historyRequests().at(-1)!.get('page')).toBe('2');
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
