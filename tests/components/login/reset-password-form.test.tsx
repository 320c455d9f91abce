import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ResetPasswordForm, resetTokenOf } from '../../../components/login/reset-password-form.tsx';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

const GOOD = 'good-token-'.padEnd(43, 'x');

// The server's answers as ResetPassword gives them: a known token once, then "used or expired".
let used = false;
const server = serveTheseTests(
  fakeApi({
    '/api/Account/ResetPassword': (req, res) => {
      const body = JSON.parse(req.body) as { token: string; password: string };
      if (body.token === GOOD && !used) {
        used = true;
        return sendEnvelope(res, { Code: 10000, Data: null });
      }
      return sendEnvelope(res, { Code: 10401, Msg: 'This password-reset link has expired or was already used. Ask an administrator for a new one.', Data: null });
    },
  }),
);
const sent = () => server.requests.filter((r) => r.url === '/api/Account/ResetPassword').map((r) => JSON.parse(r.body));

async function renderForm(token: string) {
  const onDone = vi.fn();
  await renderInApp(<ResetPasswordForm token={token} onDone={onDone} />, { apiBase: server.url });
  return { onDone, user: userEvent.setup() };
}

describe('ResetPasswordForm', () => {
  it('reads the token of a reset link', () => {
    expect(resetTokenOf('https://x.test/login?reset=abc')).toBe('abc');
    expect(resetTokenOf('https://x.test/login?reset=')).toBeNull();
    expect(resetTokenOf('https://x.test/login')).toBeNull();
  });

  it('checks the two passwords before asking the server', async () => {
    const { user } = await renderForm(GOOD);
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('The password must be at least 8 characters')).toBeInTheDocument();
    await user.type(screen.getByLabelText('New password'), ' but longer');
    await user.type(screen.getByLabelText('Repeat the new password'), 'something else');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('The two passwords differ')).toBeInTheDocument();
    expect(sent()).toEqual([]);
  });

  it('sets the password and leads on to signing in', async () => {
    used = false;
    const { user, onDone } = await renderForm(GOOD);
    await user.type(screen.getByLabelText('New password'), 'a new password');
    await user.type(screen.getByLabelText('Repeat the new password'), 'a new password');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByTestId('reset-done')).toHaveTextContent('Your password was changed');
    expect(sent()).toEqual([{ token: GOOD, password: 'a new password' }]);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(onDone).toHaveBeenCalledOnce();
  });

  it("shows the server's reason when the link is used or expired", async () => {
    used = true;
    const { user } = await renderForm(GOOD);
    await user.type(screen.getByLabelText('New password'), 'a new password');
    await user.type(screen.getByLabelText('Repeat the new password'), 'a new password');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(screen.getByTestId('reset-error')).toHaveTextContent('expired or was already used'));
    expect(screen.queryByTestId('reset-done')).toBeNull();
  });

  it('speaks Chinese', async () => {
    const { user } = await renderForm(GOOD);
    await setLanguage('zh');
    expect(await screen.findByText('设置新密码')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '设置密码' }));
    expect(await screen.findByText('密码至少需要 8 个字符')).toBeInTheDocument();
  });
});
