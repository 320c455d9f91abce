import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { VerifyEmailPanel, verifyTokenOf } from '../../../components/login/verify-email-panel.tsx';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

/** The login page's answer to a verification link (/login?verifyEmail=<token>): verified on opening, and says so. */

const GOOD = 'good-verify-token';
const server = serveTheseTests(
  fakeApi({
    '/api/Account/VerifyEmail': (req, res) => {
      const { token } = JSON.parse(req.body) as { token: string };
      if (token.startsWith(GOOD)) return sendEnvelope(res, { Code: 10000, Data: { email: 'alice@example.com', verifiedAt: '2026-05-01T10:00:00.000Z' } });
      return sendEnvelope(res, { Code: 10400, Msg: 'This verification link has expired, was already used or was replaced by a newer one.', Data: null });
    },
  }),
);
const calls = () => server.requests.filter((r) => r.url === '/api/Account/VerifyEmail').map((r) => JSON.parse(r.body));

describe('VerifyEmailPanel', () => {
  it('reads the token of a verification link', () => {
    expect(verifyTokenOf('https://x.test/login?verifyEmail=abc')).toBe('abc');
    expect(verifyTokenOf('https://x.test/login?verifyEmail=')).toBeNull();
    expect(verifyTokenOf('https://x.test/login?reset=abc')).toBeNull();
  });

  it('verifies once on opening, says so, and leads on to signing in', async () => {
    const onDone = vi.fn();
    await renderInApp(<VerifyEmailPanel token={`${GOOD}-1`} onDone={onDone} />, { apiBase: server.url });
    expect(await screen.findByTestId('verify-email-done')).toHaveTextContent('Your e-mail address alice@example.com is verified.');
    expect(calls().filter((c) => c.token === `${GOOD}-1`)).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Continue to sign in' }));
    expect(onDone).toHaveBeenCalledOnce();
  });

  it("shows the server's reason for a used or expired link", async () => {
    await renderInApp(<VerifyEmailPanel token="old-token" onDone={() => {}} />, { apiBase: server.url });
    const failed = await screen.findByTestId('verify-email-failed');
    expect(failed).toHaveTextContent('Your e-mail address was not verified');
    expect(failed).toHaveTextContent('already used');
  });

  it('speaks Chinese', async () => {
    await setLanguage('zh');
    await renderInApp(<VerifyEmailPanel token={`${GOOD}-2`} onDone={() => {}} />, { apiBase: server.url });
    await setLanguage('zh');
    expect(await screen.findByTestId('verify-email-done')).toHaveTextContent('你的邮箱地址 alice@example.com 已验证');
    expect(screen.getByRole('button', { name: '继续登录' })).toBeInTheDocument();
  });
});
