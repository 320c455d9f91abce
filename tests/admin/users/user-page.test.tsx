import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { emailConfirms, signedAmount, validateGrantForm } from '../../../admin/users/grant-form.ts';
import { UserPage } from '../../../admin/users/user-page.tsx';
import type { AdminUserDetail } from '../../../shared/contracts/admin-users.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp } from '../../helpers/render-app.tsx';
import { prepareDataTables } from '../shell/datatable-env.ts';

prepareDataTables();

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };

let user: AdminUserDetail;
const detail = (fields: Partial<AdminUserDetail> = {}): AdminUserDetail => ({
  userId: 'u1',
  email: 'grace@example.com',
  userName: 'Grace',
  role: 'user',
  status: 'active',
  planLevel: 1,
  planEndTime: '2026-12-24T00:00:00.000Z',
  balance: 120,
  sessionCount: 3,
  lastActiveTime: '2026-11-20T10:00:00.000Z',
  createTime: '2026-10-01T10:00:00.000Z',
  plan: { level: 1, name: 'Standard', endTime: '2026-12-24T00:00:00.000Z', subscription: null },
  usedPoints: 40,
  openDisputes: 1,
  messageCount: 17,
  tokens: { input: 1200, output: 3400 },
  inviter: { userId: 'i1', email: 'inviter@example.com', userName: 'Ivy', createTime: '2026-09-01T00:00:00.000Z', inviteeCount: 4 },
  invitees: { total: 1, list: [{ userId: 'v1', email: 'friend@example.com', userName: 'Fred', createTime: '2026-11-02T00:00:00.000Z', inviteeCount: 0 }] },
  ledger: {
    total: 1,
    list: [{ id: 'l1', kind: 'checkin', delta: 10, allowance: 0, balanceAfter: 120, note: 'Daily check-in', refId: null, createTime: '2026-11-20T09:00:00.000Z' }],
  },
  ...fields,
});

const server = serveTheseTests(
  fakeApi({
    '/api/admin/User/GetById': (_req, res) => sendEnvelope(res, { Code: 10000, Data: user }),
    '/api/admin/User/GrantPoints': (req, res) => {
      const body = JSON.parse(req.body) as { amount: number; reason: string };
      if (body.reason === 'refuse me') return sendEnvelope(res, { Code: 10400, Msg: 'The reason is not accepted.' });
      user = { ...user, balance: user.balance + body.amount };
      return sendEnvelope(res, { Code: 10000, Data: { applied: true, balance: user.balance } });
    },
    '/api/admin/User/GetDeletePreview': answer({ userId: 'u1', email: 'grace@example.com', sessions: 3, messages: 17, favourites: 2, files: 5, ledgerEntries: 9, orders: 1, runningSubscription: true }),
    '/api/admin/User/Delete': answer({ subscription: 'cancelled' }),
    '/api/admin/User/EndPlan': (_req, res) => {
      user = { ...user, planLevel: 0, planEndTime: null, plan: { level: 0, name: 'Free', endTime: null, subscription: null } };
      return sendEnvelope(res, { Code: 10000, Data: { endedOrders: 1, subscription: 'notConfigured' } });
    },
    '/api/admin/User/Close': (_req, res) => {
      user = { ...user, status: 'closed' };
      return sendEnvelope(res, { Code: 10000, Data: null });
    },
  }),
);
const bodies = (path: string) => server.requests.filter((r) => r.url === path).map((r) => JSON.parse(r.body) as Record<string, unknown>);

beforeEach(() => {
  user = detail();
});

async function renderPage() {
  const memory = memoryLocation({ path: '/admin/users/u1', record: true });
  await renderInApp(
    <Router hook={memory.hook}>
      <Route path="/admin/users/:userId">
        <UserPage />
      </Route>
      <Route path="/admin/users">
        <p>users list</p>
      </Route>
    </Router>,
    { apiBase: server.url, user: admin },
  );
  await screen.findByRole('heading', { name: 'grace@example.com' });
  return memory;
}

describe('the grant form rules', () => {
  it('wants a whole positive number, at most ten million, and a reason', () => {
    const ok = { direction: 'grant' as const, amount: 50, reason: 'Apology for the outage' };
    expect(validateGrantForm(ok, 0)).toEqual({});
    expect(validateGrantForm({ ...ok, amount: '' }, 0).amount?.key).toBe('amountRequired');
    expect(validateGrantForm({ ...ok, amount: 1.5 }, 0).amount?.key).toBe('amountRequired');
    expect(validateGrantForm({ ...ok, amount: 0 }, 0).amount?.key).toBe('amountPositive');
    expect(validateGrantForm({ ...ok, amount: -5 }, 0).amount?.key).toBe('amountPositive');
    expect(validateGrantForm({ ...ok, amount: 10_000_001 }, 0).amount?.key).toBe('amountTooLarge');
    expect(validateGrantForm({ ...ok, reason: '   ' }, 0).reason?.key).toBe('reasonRequired');
    expect(validateGrantForm({ ...ok, reason: 'x'.repeat(201) }, 0).reason?.key).toBe('reasonTooLong');
  });

  it('does not deduct more than the balance, and sends a deduction as a negative amount', () => {
    expect(validateGrantForm({ direction: 'deduct', amount: 121, reason: 'r' }, 120).amount).toEqual({ key: 'tooMuchDeducted', values: { balance: 120 } });
    expect(validateGrantForm({ direction: 'deduct', amount: 120, reason: 'r' }, 120)).toEqual({});
    expect(signedAmount({ direction: 'deduct', amount: 30, reason: 'r' })).toBe(-30);
    expect(signedAmount({ direction: 'grant', amount: 30, reason: 'r' })).toBe(30);
  });

  it('confirms a deletion only with the account e-mail, case and spaces aside', () => {
    expect(emailConfirms(' Grace@Example.com ', 'grace@example.com')).toBe(true);
    expect(emailConfirms('grace@example.co', 'grace@example.com')).toBe(false);
    expect(emailConfirms('', '')).toBe(false);
  });
});

describe('UserPage', () => {
  it("shows the user's plan, balance, activity, ledger and invite tree", async () => {
    await renderPage();
    expect(screen.getByTestId('user-balance-value')).toHaveTextContent('120');
    expect(screen.getByTestId('user-plan-value')).toHaveTextContent(/^Standard until /);
    expect(screen.getByTestId('user-open-disputes')).toHaveTextContent('Open chargebacks: 1');
    expect(screen.getByRole('group', { name: 'Tokens' })).toHaveTextContent('4,600');
    expect(screen.getByRole('group', { name: 'Tokens' })).toHaveTextContent('1,200 in · 3,400 out');
    // The table may render again once it knows its size: it is looked up afresh.
    const ledger = () => screen.getByRole('table', { name: 'Points ledger' });
    await waitFor(() => expect(ledger()).toHaveTextContent('Daily check-in'));
    expect(ledger()).toHaveTextContent('+10');
    const tree = screen.getByTestId('invite-tree');
    expect(within(tree).getByRole('link', { name: 'inviter@example.com' })).toHaveAttribute('href', '/admin/users/i1');
    expect(within(tree).getByRole('link', { name: 'friend@example.com' })).toHaveAttribute('href', '/admin/users/v1');
  });

  it('says whether the e-mail is verified, and when', async () => {
    user = detail({ emailVerifiedAt: '2026-10-02T08:30:00.000Z' });
    await renderPage();
    expect(screen.getByTestId('user-email-verified')).toHaveTextContent('E-mail verified');
    expect(screen.getByText(/E-mail verified .*2026/)).toBeInTheDocument();
  });

  it('says an e-mail is not verified', async () => {
    user = detail({ emailVerifiedAt: null });
    await renderPage();
    expect(screen.getByTestId('user-email-verified')).toHaveTextContent('E-mail not verified');
    expect(screen.queryByText(/E-mail verified /)).toBeNull();
  });

  it('shows no verification badge when the server does not say', async () => {
    await renderPage();
    expect(screen.queryByTestId('user-email-verified')).toBeNull();
  });

  it('grants points with a reason, once per opened form (one request id), and shows the new balance', async () => {
    await renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'Grant or deduct points' }));
    const form = await screen.findByRole('form', { name: 'Grant or deduct points' });
    // Nothing typed: the form says what is missing and sends nothing.
    await userEvent.click(within(form).getByRole('button', { name: 'Grant 0 points' }));
    expect(await within(form).findByText('Enter a whole number of points')).toBeInTheDocument();
    expect(within(form).getByText('Say why: the user sees the reason')).toBeInTheDocument();
    expect(bodies('/api/admin/User/GrantPoints')).toHaveLength(0);

    await userEvent.type(within(form).getByRole('textbox', { name: 'Points' }), '250');
    await userEvent.type(within(form).getByRole('textbox', { name: /^Reason/ }), 'refuse me');
    expect(within(form).getByTestId('grant-preview')).toHaveTextContent('Balance 120 → 370');
    await userEvent.click(within(form).getByRole('button', { name: 'Grant 250 points' }));
    // Refused: the server's message, and the form keeps what was typed.
    expect(await screen.findByText('The reason is not accepted.')).toBeInTheDocument();
    expect(within(form).getByRole('textbox', { name: 'Points' })).toHaveValue('250');

    const reason = within(form).getByRole('textbox', { name: /^Reason/ });
    await userEvent.clear(reason);
    await userEvent.type(reason, 'Apology for the outage');
    await userEvent.click(within(form).getByRole('button', { name: 'Grant 250 points' }));
    await waitFor(() => expect(screen.getByTestId('user-balance-value')).toHaveTextContent('370'));
    const sent = bodies('/api/admin/User/GrantPoints');
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({ userId: 'u1', amount: 250, reason: 'Apology for the outage' });
    // The retry of the same intended change carries the same request id.
    expect(sent[1]!.requestId).toBe(sent[0]!.requestId);
    expect(String(sent[1]!.requestId).length).toBeGreaterThanOrEqual(8);
  });

  it('deducts as a negative amount, never more than the balance', async () => {
    await renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'Grant or deduct points' }));
    const form = await screen.findByRole('form', { name: 'Grant or deduct points' });
    await userEvent.click(within(form).getByText('Deduct'));
    await userEvent.type(within(form).getByRole('textbox', { name: 'Points' }), '500');
    await userEvent.type(within(form).getByRole('textbox', { name: /^Reason/ }), 'Abuse');
    await userEvent.click(within(form).getByRole('button', { name: 'Deduct 500 points' }));
    expect(await within(form).findByText('The balance is 120: deduct at most that')).toBeInTheDocument();
    expect(bodies('/api/admin/User/GrantPoints')).toHaveLength(0);
    const amount = within(form).getByRole('textbox', { name: 'Points' });
    await userEvent.clear(amount);
    await userEvent.type(amount, '20');
    await userEvent.click(within(form).getByRole('button', { name: 'Deduct 20 points' }));
    await waitFor(() => expect(bodies('/api/admin/User/GrantPoints')).toHaveLength(1));
    expect(bodies('/api/admin/User/GrantPoints')[0]).toMatchObject({ amount: -20, reason: 'Abuse' });
  });

  it('closes the account after a confirmation', async () => {
    await renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'Close account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close grace@example.com?' });
    expect(dialog).not.toHaveTextContent('Stripe');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close the account' }));
    await waitFor(() => expect(screen.getByTestId('user-status')).toHaveTextContent('Closed'));
    expect(bodies('/api/admin/User/Close')).toEqual([{ userId: 'u1' }]);
    expect(screen.getByRole('button', { name: 'Reopen account' })).toBeInTheDocument();
  });

  it('deletes only after naming what goes and the e-mail typed, then returns to the list', async () => {
    const memory = await renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'Delete account' }));
    const form = await screen.findByRole('form', { name: 'Delete account' });
    const preview = await within(form).findByTestId('delete-preview');
    expect(preview).toHaveTextContent('Chats: 3');
    expect(preview).toHaveTextContent('Messages: 17');
    expect(preview).toHaveTextContent('Files and images: 5');
    expect(preview).toHaveTextContent('Orders: 1');
    expect(preview).toHaveTextContent('Its running Stripe subscription is cancelled first: nothing more is billed.');
    const confirm = within(form).getByRole('button', { name: 'Delete for good' });
    expect(confirm).toBeDisabled();
    const email = within(form).getByRole('textbox', { name: "Type the account's e-mail to confirm" });
    await userEvent.type(email, 'someone@example.com');
    expect(confirm).toBeDisabled();
    await userEvent.clear(email);
    await userEvent.type(email, 'GRACE@example.com');
    expect(confirm).toBeEnabled();
    await userEvent.click(confirm);
    await waitFor(() => expect(memory.history).toContain('/admin/users'));
    expect(bodies('/api/admin/User/Delete')).toEqual([{ userId: 'u1', confirmEmail: 'GRACE@example.com' }]);
    expect(await screen.findByText('grace@example.com was deleted Its Stripe subscription was cancelled: nothing more is billed.')).toBeInTheDocument();
  });

  it('warns, before closing an account, that its running subscription keeps billing', async () => {
    user = detail({ plan: { ...user.plan, subscription: { id: 'sub_1', status: 'past_due', currentPeriodEnd: null, cancelAtPeriodEnd: false } } });
    await renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'Close account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close grace@example.com?' });
    expect(dialog).toHaveTextContent('Its Stripe subscription keeps billing while the account is closed: end the plan first to cancel it.');
  });

  it('speaks of no subscription when ending a plan that none pays for', async () => {
    await renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'End plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'End the plan now?' });
    expect(dialog).toHaveTextContent('Every plan order of grace@example.com in force or scheduled ends now');
    expect(dialog).not.toHaveTextContent('Stripe');
  });

  it('ends the plan after a confirmation, and says when its Stripe subscription must still be cancelled in Stripe', async () => {
    user = detail({ plan: { ...user.plan, subscription: { id: 'sub_1', status: 'active', currentPeriodEnd: '2026-12-24T00:00:00.000Z', cancelAtPeriodEnd: false } } });
    await renderPage();
    await userEvent.click(screen.getByRole('button', { name: 'End plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'End the plan now?' });
    expect(dialog).toHaveTextContent('The Stripe subscription of grace@example.com is cancelled at once, so nothing more is billed');
    await userEvent.click(within(dialog).getByRole('button', { name: 'End the plan' }));
    const toast = await screen.findByText(/^1 plan order ended Its Stripe subscription still runs/);
    expect(toast).toHaveTextContent("cancel it in Stripe's dashboard.");
    expect(bodies('/api/admin/User/EndPlan')).toEqual([{ userId: 'u1' }]);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'End plan' })).toBeNull());
  });
});
