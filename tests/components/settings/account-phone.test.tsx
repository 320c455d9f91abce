import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AccountSection } from '../../../components/settings/account-section.tsx';
import { userInfoAtom } from '../../../shared/atoms/auth.ts';
import type { UserInfo } from '../../../shared/contracts/user.ts';
import { answer, fakeApi, serveTheseTests, type Route } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/**
 * Settings → Account → Profile's phone number: saved as the server stores it, removed when emptied;
 * a refusal shows under the field and keeps what was typed.
 */

let update: Route;
const server = serveTheseTests(
  fakeApi({
    '/api/User/GetUserByLogin': answer(testUser),
    '/api/Account/UpdateUserPhone': (req, res, url) => update(req, res, url),
  }),
);
/** Answers as the server does: the user info with the number as stored (digits and a +). */
const storesIt: Route = (req, res) => {
  const { phone } = JSON.parse(req.body) as { phone: string | null };
  sendEnvelope(res, { Code: 10000, Msg: '', Data: { ...testUser, phone: phone && phone.replace(/[\s\-.()]/g, '') } satisfies UserInfo });
};
beforeEach(() => {
  update = storesIt;
  notifications.clean();
});

const updates = () => server.requests.filter((r) => r.url === '/api/Account/UpdateUserPhone').map((r) => JSON.parse(r.body));
const profile = () => screen.getByTestId('settings-profile');
const input = () => within(profile()).getByLabelText('Phone number (optional)') as HTMLInputElement;
const saveButton = () => within(profile()).getAllByRole('button', { name: 'Save' }).at(-1)!;

describe('the phone number in the profile', () => {
  it('saves a number as the server stores it, and says so', async () => {
    const { store } = await renderInApp(<AccountSection />, { apiBase: server.url, user: testUser });
    expect(input()).toHaveAttribute('autocomplete', 'tel');
    expect(saveButton()).toBeDisabled();
    await userEvent.type(input(), '+44 20 7946 0958');
    await userEvent.click(saveButton());
    expect(await screen.findByText('Phone number saved')).toBeInTheDocument();
    expect(updates()).toEqual([{ phone: '+44 20 7946 0958' }]);
    await waitFor(() => expect(input().value).toBe('+442079460958'));
    expect(store.get(userInfoAtom)?.phone).toBe('+442079460958');
    expect(saveButton()).toBeDisabled();
  });

  it('removes the number when the field is emptied', async () => {
    await renderInApp(<AccountSection />, { apiBase: server.url, user: { ...testUser, phone: '+15551234567' } });
    expect(input().value).toBe('+15551234567');
    await userEvent.clear(input());
    await userEvent.click(saveButton());
    expect(await screen.findByText('Phone number removed')).toBeInTheDocument();
    expect(updates().at(-1)).toEqual({ phone: null });
  });

  it('shows the server’s refusal under the field and keeps what was typed', async () => {
    update = (_req, res) => sendEnvelope(res, { Code: 10409, Msg: 'This phone number is already on another account.', Data: null });
    await renderInApp(<AccountSection />, { apiBase: server.url, user: testUser });
    await userEvent.type(input(), '0123456789');
    await userEvent.click(saveButton());
    expect(await within(profile()).findByText('This phone number is already on another account.')).toBeInTheDocument();
    expect(input().value).toBe('0123456789');
    expect(input()).toHaveAttribute('aria-invalid', 'true');
    // Typing again clears the refusal.
    await userEvent.type(input(), '1');
    expect(within(profile()).queryByText('This phone number is already on another account.')).toBeNull();
  });
});
