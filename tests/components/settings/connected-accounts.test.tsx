import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountSection } from '../../../components/settings/account-section.tsx';
import type { UserProvider } from '../../../shared/contracts/sign-in-providers.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/**
 * Settings → Account for an account made through a sign-in provider: Connected accounts lists the
 * links and never offers to remove the last way to sign in; the Password card sets a first password
 * without asking for a current one; after that the link can be removed.
 */
const google: UserProvider = {
  id: 'link-1',
  providerKey: 'google',
  providerName: 'Google',
  kind: 'google',
  email: 'alice@gmail.test',
  emailVerified: true,
  displayName: 'Alice',
  createTime: '2026-11-01T00:00:00.000Z',
  lastUsedTime: null,
};
let links: UserProvider[];
let hasPassword: boolean;

const server = serveTheseTests(
  fakeApi({
    '/api/User/GetUserByLogin': answer(testUser),
    '/api/Account/GetProviderListAll': answer({
      list: [
        { providerKey: 'google', displayName: 'Google', kind: 'google', icon: 'google' },
        { providerKey: 'github', displayName: 'GitHub', kind: 'github', icon: 'github' },
      ],
    }),
    '/api/User/GetUserProviderList': (_req, res) => sendEnvelope(res, { Code: 10000, Data: { list: links, hasPassword } }),
    '/api/Account/UpdateUserPassword': (req, res) => {
      const body = JSON.parse(req.body) as { oldPassword?: string };
      if (hasPassword && !body.oldPassword) return sendEnvelope(res, { Code: 10400, Msg: 'Invalid request: oldPassword: Type your current password.' });
      hasPassword = true;
      return sendEnvelope(res, { Code: 10000, Data: null });
    },
    '/api/User/DeleteUserProvider': (req, res) => {
      const { id } = JSON.parse(req.body) as { id: string };
      if (!hasPassword && links.length === 1) return sendEnvelope(res, { Code: 10409, Msg: 'This is the last way to sign in to your account.' });
      links = links.filter((l) => l.id !== id);
      return sendEnvelope(res, { Code: 10000, Data: null });
    },
  }),
);
const sent = (path: string) => server.requests.filter((r) => r.url.split('?')[0] === path);

beforeEach(() => {
  links = [google];
  hasPassword = false;
  notifications.clean();
});
afterEach(() => vi.restoreAllMocks());

describe('Connected accounts', () => {
  it('keeps the last way to sign in; a first password, set without a current one, frees it', { timeout: 60_000 }, async () => {
    await renderInApp(<AccountSection />, { apiBase: server.url, user: testUser });
    const section = await screen.findByTestId('settings-connected-accounts');
    const row = await within(section).findByTestId('linked-google');
    expect(within(row).getByText('Connected as alice@gmail.test')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Disconnect' })).toBeDisabled();
    expect(within(section).getByTestId('provider-last-way')).toHaveTextContent('This is your only way to sign in. Set a password first.');
    // The other provider is offered.
    expect(within(section).getByRole('button', { name: 'Connect GitHub' })).toBeInTheDocument();

    const card = screen.getByTestId('settings-password');
    await waitFor(() => expect(within(card).getByText('Set a password')).toBeInTheDocument());
    expect(within(card).queryByLabelText('Current password')).toBeNull();
    await userEvent.type(within(card).getByLabelText('New password'), 'my first password');
    await userEvent.type(within(card).getByLabelText('Repeat the new password'), 'my first password');
    await userEvent.click(within(card).getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(sent('/api/Account/UpdateUserPassword')).toHaveLength(1));
    expect(JSON.parse(sent('/api/Account/UpdateUserPassword')[0]!.body)).toEqual({ oldPassword: '', newPassword: 'my first password' });
    expect(await screen.findByText('Password set. You can now sign in with your e-mail and this password.')).toBeInTheDocument();

    // Now a password account: the card asks for the current one, and the link can go.
    await waitFor(() => expect(within(card).getByLabelText('Current password')).toBeInTheDocument());
    const disconnect = within(row).getByRole('button', { name: 'Disconnect' });
    await waitFor(() => expect(disconnect).toBeEnabled());
    await userEvent.click(disconnect);
    await waitFor(() => expect(sent('/api/User/DeleteUserProvider').map((r) => JSON.parse(r.body))).toEqual([{ id: 'link-1' }]));
    expect(await screen.findByText('Google is disconnected.')).toBeInTheDocument();
    expect(await within(section).findByText('No account is connected yet.')).toBeInTheDocument();
  });

  it('from another origin (the extension), opens the web app’s account settings to connect', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    await renderInApp(<AccountSection />, { apiBase: server.url, user: testUser });
    const section = await screen.findByTestId('settings-connected-accounts');
    expect(within(section).getByText('Connecting another account opens in a new tab.')).toBeInTheDocument();
    await userEvent.click(await within(section).findByRole('button', { name: 'Connect GitHub' }));
    expect(open).toHaveBeenCalledWith(`${server.url}/setting/account`, '_blank', 'noopener');
    expect(sent('/api/Account/GetProviderByAction')).toHaveLength(0);
  });
});
