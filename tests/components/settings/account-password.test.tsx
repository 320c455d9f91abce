import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AccountSection } from '../../../components/settings/account-section.tsx';
import { tokenAtom } from '../../../shared/atoms/auth.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { answer, fakeApi, serveTheseTests, type Route } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/**
 * Settings → Account → Password: the form checks what it can before sending (sign-up's rule, the
 * two new passwords alike, not the current one again), shows the server's refusals where they
 * belong, and says when it is done.
 */

let change: Route;
const server = serveTheseTests(
  fakeApi({
    '/api/User/GetUserByLogin': answer(testUser),
    '/api/Account/UpdateUserPassword': (req, res, url) => change(req, res, url),
  }),
);
beforeEach(() => {
  change = answer();
  notifications.clean();
});

const changes = () => server.requests.filter((r) => r.url === '/api/Account/UpdateUserPassword');
const card = () => screen.getByTestId('settings-password');
const field = (name: 'current' | 'next' | 'confirm') => screen.getByTestId(`password-${name}`) as HTMLInputElement;

async function fill(values: { current?: string; next?: string; confirm?: string }) {
  for (const [name, value] of Object.entries(values) as ['current' | 'next' | 'confirm', string][]) {
    await userEvent.clear(field(name));
    if (value) await userEvent.type(field(name), value);
  }
}
const submit = () => userEvent.click(within(card()).getByRole('button', { name: 'Change password' }));

describe('the Password card', () => {
  it('has the fields password managers look for: the account, the current and the new password', async () => {
    await renderInApp(<AccountSection />, { apiBase: server.url, user: testUser });
    expect(within(card()).getByLabelText('Current password')).toHaveAttribute('autocomplete', 'current-password');
    expect(within(card()).getByLabelText('New password')).toHaveAttribute('autocomplete', 'new-password');
    expect(within(card()).getByLabelText('Repeat the new password')).toHaveAttribute('autocomplete', 'new-password');
    const username = card().querySelector('input[autocomplete="username"]') as HTMLInputElement;
    expect(username.value).toBe('alice@example.com');
    // Each field shows and hides what was typed.
    await userEvent.type(field('current'), 'secret one');
    expect(field('current')).toHaveAttribute('type', 'password');
    await userEvent.click(within(field('current').closest('.mantine-PasswordInput-root') as HTMLElement).getByRole('button', { name: 'Show or hide the password' }));
    expect(field('current')).toHaveAttribute('type', 'text');
  });

  it('checks the form before sending: a current password, 8 characters, the same twice, not the current one', async () => {
    await renderInApp(<AccountSection />, { apiBase: server.url, user: testUser });
    await submit();
    expect(await within(card()).findByText('Type your current password')).toBeInTheDocument();
    await fill({ current: 'old password here', next: 'short', confirm: 'short' });
    await submit();
    expect(await within(card()).findByText('The password must be at least 8 characters')).toBeInTheDocument();
    await fill({ next: 'long enough now', confirm: 'long enough, not' });
    await submit();
    expect(await within(card()).findByText('The two passwords differ')).toBeInTheDocument();
    await fill({ next: 'old password here', confirm: 'old password here' });
    await submit();
    expect(await within(card()).findByText('The new password is the same as the current one')).toBeInTheDocument();
    expect(changes()).toEqual([]);
  });

  it('sends the change, says it is done, empties the form and stays signed in', async () => {
    const { store } = await renderInApp(<AccountSection />, { apiBase: server.url, user: testUser });
    await fill({ current: 'old password here', next: 'a brand new one', confirm: 'a brand new one' });
    await submit();
    expect(await screen.findByText('Password changed. You were signed out on your other devices.')).toBeInTheDocument();
    expect(changes()).toHaveLength(1);
    expect(JSON.parse(changes()[0]!.body)).toEqual({ oldPassword: 'old password here', newPassword: 'a brand new one' });
    expect(changes()[0]!.headers.authorization).toBe('Bearer test-token');
    await waitFor(() => expect(field('current').value).toBe(''));
    expect([field('next').value, field('confirm').value]).toEqual(['', '']);
    expect(store.get(tokenAtom)).toBe('test-token');
  });

  it('shows a wrong current password under it, a refused new one under that, anything else below the form', async () => {
    await renderInApp(<AccountSection />, { apiBase: server.url, user: testUser });
    change = (_req, res) => sendEnvelope(res, { Code: 10401, Msg: 'The current password is wrong.', Data: null });
    await fill({ current: 'not it at all', next: 'a brand new one', confirm: 'a brand new one' });
    await submit();
    const wrong = await within(card()).findByText('The current password is wrong.');
    expect(field('current')).toHaveAttribute('aria-invalid', 'true');
    expect(field('current').getAttribute('aria-describedby')?.split(' ')).toContain(wrong.id);

    change = (_req, res) => sendEnvelope(res, { Code: 10400, Msg: 'Invalid request: newPassword: The password must be at least 8 characters.', Data: null });
    await submit();
    expect(await within(card()).findByText(/newPassword: The password must be at least 8 characters/)).toBeInTheDocument();
    expect(field('next')).toHaveAttribute('aria-invalid', 'true');

    change = (_req, res) => sendEnvelope(res, { Code: 10429, Msg: 'Too many wrong passwords for this account. Please try again in 60 seconds.', Data: null });
    await submit();
    expect(await screen.findByTestId('password-error')).toHaveTextContent('Too many wrong passwords for this account. Please try again in 60 seconds.');
    // Nothing was emptied: the user corrects and tries again.
    expect(field('current').value).toBe('not it at all');
  });

  it('speaks Chinese in Chinese', async () => {
    await renderInApp(<AccountSection />, { apiBase: server.url, user: testUser });
    await setLanguage('zh');
    expect(await within(card()).findByText('密码')).toBeInTheDocument();
    await userEvent.click(within(card()).getByRole('button', { name: '更改密码' }));
    expect(await within(card()).findByText('请输入当前密码')).toBeInTheDocument();
  });
});
