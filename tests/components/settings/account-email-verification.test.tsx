import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AccountSection } from '../../../components/settings/account-section.tsx';
import type { EmailState } from '../../../shared/contracts/email-verification.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { answer, fakeApi, serveTheseTests, type Route } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/**
 * Settings → Account → Profile's e-mail line: verified or not (GetEmailState), and for an address
 * not verified a way to have the link mailed again (SendVerifyEmail), with the outcome under it: sent,
 * or the server's reason (no SMTP, too many this hour).
 */

const notVerified: EmailState = { email: testUser.email, verified: false, verifiedAt: null, canSend: true, sentAt: '2026-05-01T10:00:00.000Z' };
let emailState: EmailState;
let known: boolean;
let send: Route;
const server = serveTheseTests(
  fakeApi({
    '/api/User/GetUserByLogin': answer(testUser),
    // An older server answers 10404 to a route it does not have.
    '/api/Account/GetEmailState': (_req, res) => sendEnvelope(res, known ? { Code: 10000, Msg: '', Data: emailState } : { Code: 10404, Msg: 'not found', Data: null }),
    '/api/Account/SendVerifyEmail': (req, res, url) => send(req, res, url),
  }),
);
beforeEach(() => {
  known = true;
  emailState = notVerified;
  send = (_req, res) => {
    emailState = { ...emailState, sentAt: '2026-05-02T12:30:00.000Z' };
    sendEnvelope(res, { Code: 10000, Msg: '', Data: emailState });
  };
});

const sends = () => server.requests.filter((r) => r.url === '/api/Account/SendVerifyEmail');
const line = () => screen.getByTestId('settings-email');

describe('the e-mail verification state in Settings → Account', () => {
  it('shows a verified address with its badge and no button', async () => {
    emailState = { ...notVerified, verified: true, verifiedAt: '2026-05-01T11:00:00.000Z' };
    await renderInApp(<AccountSection />, { apiBase: server.url, user: testUser });
    expect(await within(line()).findByText('Verified')).toBeInTheDocument();
    expect(line()).toHaveTextContent('E-mail: alice@example.com');
    expect(within(line()).queryByRole('button')).toBeNull();
    expect(screen.queryByText('Not verified')).toBeNull();
  });

  it('sends the link again for an address not verified, and says it was sent', async () => {
    await renderInApp(<AccountSection />, { apiBase: server.url, user: testUser });
    expect(await within(line()).findByText('Not verified')).toBeInTheDocument();
    expect(line()).toHaveTextContent('Last link sent');
    await userEvent.click(within(line()).getByRole('button', { name: 'Send the link again' }));
    expect(await within(line()).findByRole('status')).toHaveTextContent('Link sent. Open it from your inbox to verify alice@example.com.');
    expect(sends()).toHaveLength(1);
    // The state the answer carried is shown (still not verified, a later mail).
    expect(within(line()).getByText('Not verified')).toBeInTheDocument();
  });

  it('offers "Send a verification link" when none went out yet', async () => {
    emailState = { ...notVerified, sentAt: null };
    await renderInApp(<AccountSection />, { apiBase: server.url, user: testUser });
    expect(await within(line()).findByRole('button', { name: 'Send a verification link' })).toBeInTheDocument();
    expect(line()).not.toHaveTextContent('Last link sent');
  });

  it("shows the server's refusal (too many this hour) under the button", async () => {
    send = (_req, res) =>
      sendEnvelope(res, { Code: 10429, Msg: 'You asked for 5 verification e-mails within an hour. Please try again in 1200 seconds.', Data: null });
    await renderInApp(<AccountSection />, { apiBase: server.url, user: testUser });
    await userEvent.click(await within(line()).findByRole('button', { name: 'Send the link again' }));
    expect(await within(line()).findByRole('alert')).toHaveTextContent('Please try again in 1200 seconds.');
  });

  it('says the server cannot send mail instead of offering a button', async () => {
    emailState = { ...notVerified, canSend: false, sentAt: null };
    await renderInApp(<AccountSection />, { apiBase: server.url, user: testUser });
    expect(await within(line()).findByText('This server cannot send e-mail, so your address cannot be verified yet.')).toBeInTheDocument();
    expect(within(line()).queryByRole('button')).toBeNull();
  });

  it('shows the address alone when the server does not know verification', async () => {
    known = false;
    await renderInApp(<AccountSection />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(server.requests.some((r) => r.url === '/api/Account/GetEmailState')).toBe(true));
    expect(line()).toHaveTextContent('E-mail: alice@example.com');
    expect(within(line()).queryByText('Not verified')).toBeNull();
    expect(within(line()).queryByRole('button')).toBeNull();
  });

  it('speaks Chinese', async () => {
    await renderInApp(<AccountSection />, { apiBase: server.url, user: testUser });
    await setLanguage('zh');
    expect(await within(line()).findByText('未验证')).toBeInTheDocument();
    await waitFor(() => expect(within(line()).getByRole('button', { name: '重新发送链接' })).toBeInTheDocument());
  });
});
