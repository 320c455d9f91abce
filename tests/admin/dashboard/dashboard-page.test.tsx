import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, lastDays, perModelRows, rangeProblem } from '../../../admin/dashboard/dashboard-data.ts';
import { formatMoney } from '../../../shared/utils/money.ts';
import { DashboardPage } from '../../../admin/dashboard/dashboard-page.tsx';
import { dashboardStats } from '../../helpers/dashboard.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp } from '../../helpers/render-app.tsx';
import { prepareDataTables } from '../shell/datatable-env.ts';

prepareDataTables();

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };
const TODAY = new Date(2026, 10, 25, 12, 0, 0);

const dashboard = (from: string, to: string) =>
  dashboardStats(from, to, [{ aiModelId: 'gpt-4.1', modelName: 'GPT 4.1' }, { aiModelId: 'basic', modelName: 'Basic' }], addDays(to, -1));

const server = serveTheseTests(
  fakeApi({
    '/api/admin/Statistic/GetDashboard': (_req, res, url) => {
      const from = url.searchParams.get('from')!;
      const to = url.searchParams.get('to')!;
      return sendEnvelope(res, { Code: 10000, Data: dashboard(from, to) });
    },
  }),
);
const asked = () => server.requests.filter((r) => r.url.startsWith('/api/admin/Statistic/GetDashboard')).map((r) => new URL(r.url, 'http://x').searchParams);

describe('the dashboard data helpers', () => {
  it('counts days and picks the last n days ending today', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysBetween('2026-01-01', '2026-12-31')).toBe(365);
    expect(lastDays(30, TODAY)).toEqual({ from: '2026-10-27', to: '2026-11-25' });
  });

  it('refuses a range backwards, empty or too long', () => {
    expect(rangeProblem({ from: '2026-11-01', to: '2026-11-30' }, 732)).toBeNull();
    expect(rangeProblem({ from: '', to: '2026-11-30' }, 732)).toEqual({ field: 'from', key: 'required' });
    expect(rangeProblem({ from: '2026-12-01', to: '2026-11-30' }, 732)).toEqual({ field: 'from', key: 'fromAfterTo' });
    expect(rangeProblem({ from: '2020-01-01', to: '2026-11-30' }, 732)).toEqual({ field: 'from', key: 'tooLong' });
  });

  it('lays out one row per day and a series per model, keyed safely (a model id may hold a dot)', () => {
    const data = dashboard('2026-11-24', '2026-11-25');
    const { rows, series } = perModelRows(data.days, data.modelDays, data.models, 'messages');
    expect(series).toEqual([
      { name: 'm0', label: 'GPT 4.1', color: 'blue.6' },
      { name: 'm1', label: 'Basic', color: 'teal.6' },
    ]);
    expect(rows).toEqual([
      { day: '2026-11-24', m0: 0, m1: 0 },
      { day: '2026-11-25', m0: 200, m1: 34 },
    ]);
    expect(perModelRows(data.days, data.modelDays, data.models, 'tokens').rows[1]).toEqual({ day: '2026-11-25', m0: 15, m1: 2 });
  });

  it('shows money in its currency from minor units', () => {
    expect(formatMoney(123_456, 'usd', 'en')).toBe('$1,234.56');
    expect(formatMoney(500, 'JPY', 'en')).toBe('¥500');
    expect(formatMoney(5, '??', 'en')).toBe('5 ??');
  });
});

describe('DashboardPage', () => {
  it('asks for the last 30 days in the browser time zone and shows the figures the server sent', async () => {
    await renderInApp(<DashboardPage today={TODAY} />, { apiBase: server.url, user: admin });
    await screen.findByTestId('dashboard-figures');
    const query = asked()[0]!;
    expect(query.get('from')).toBe('2026-10-27');
    expect(query.get('to')).toBe('2026-11-25');
    expect(query.get('timeZone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(screen.getByTestId('card-messages-value')).toHaveTextContent('1,234');
    expect(screen.getByTestId('card-tokens-value')).toHaveTextContent('12,500');
    expect(screen.getByTestId('card-active-week-value')).toHaveTextContent('5');
    expect(screen.getByTestId('card-revenue-value')).toHaveTextContent('$1,234.56');
    expect(screen.getByTestId('card-revenue')).toHaveTextContent('12 paid orders');
    // A table may render again once it knows its size: it is looked up afresh.
    const deployments = () => screen.getByRole('table', { name: 'Errors and failovers per deployment' });
    await waitFor(() => expect(deployments()).toHaveTextContent('openai · gpt-4.1-mini'));
    expect(deployments()).toHaveTextContent('10%');
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Time to first token per model' })).getByText('812 ms')).toBeInTheDocument());
    expect(screen.getByRole('figure', { name: 'Messages per day by model' })).toBeInTheDocument();
  });

  it('asks again for another range, and not while the range is wrong', async () => {
    await renderInApp(<DashboardPage today={TODAY} />, { apiBase: server.url, user: admin });
    await screen.findByTestId('dashboard-figures');
    await userEvent.click(screen.getByText('7 days'));
    await waitFor(() => expect(asked().some((q) => q.get('from') === '2026-11-19')).toBe(true));
    const before = asked().length;
    const from = screen.getByLabelText('From');
    await userEvent.clear(from);
    await userEvent.type(from, '2026-12-30');
    expect(await screen.findByText('The first day must not be after the last')).toBeInTheDocument();
    expect(asked().length).toBe(before);
  });
});
