import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { NotificationsTab } from '../../../admin/content/notifications-tab.tsx';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };
let failures = 0;

const server = serveTheseTests(
  fakeApi({
    '/api/admin/UserNotification/Broadcast': (_req, res) =>
      failures-- > 0 ? sendEnvelope(res, { Code: 10500, Msg: 'The database is busy, try again.', Data: null }) : sendEnvelope(res, { Code: 10000, Data: { sent: 3 } }),
  }),
);
const broadcasts = () => server.requests.filter((r) => r.url === '/api/admin/UserNotification/Broadcast').map((r) => JSON.parse(r.body) as Record<string, unknown>);

beforeEach(() => {
  failures = 0;
});

/** Puts text in a field at once (typing it key by key is slow on a busy machine, and not what is tested here). */
async function fill(field: HTMLElement, text: string) {
  await userEvent.click(field);
  await userEvent.paste(text);
}

async function send() {
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  await userEvent.click(within(screen.getByRole('form', { name: 'Notifications' })).getByRole('button', { name: 'Send' }));
  const dialog = await screen.findByRole('dialog', { name: 'Send this notification?' });
  await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
}

describe('NotificationsTab', () => {
  it('checks the message before sending', async () => {
    await renderInApp(<NotificationsTab />, { apiBase: server.url, user: admin });
    await userEvent.click(screen.getByRole('radio', { name: 'One user' }));
    await fill(screen.getByLabelText(/Title/), 'Maintenance tonight');
    await fill(screen.getByLabelText(/Link/), 'https://elsewhere.example');
    await userEvent.click(within(screen.getByRole('form', { name: 'Notifications' })).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText("Enter the user's id.")).toBeVisible();
    expect(screen.getByText('A path inside the app, starting with / (e.g. /pricing).')).toBeVisible();
    expect(broadcasts()).toEqual([]);
  });

  it('sends a Chinese title and message beside the default text, only when written, and both or neither', async () => {
    await renderInApp(<NotificationsTab />, { apiBase: server.url, user: admin });
    await fill(screen.getByLabelText(/Title/), 'Maintenance tonight');
    await fill(screen.getByLabelText(/Message/), 'We restart at 22:00.');
    await fill(screen.getByLabelText('Chinese title'), '今晚维护');
    await userEvent.click(within(screen.getByRole('form', { name: 'Notifications' })).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Write both the Chinese title and message, or leave both empty.')).toBeVisible();
    expect(broadcasts()).toEqual([]);

    await fill(screen.getByLabelText('Chinese message'), '我们将在 22:00 重启。');
    await send();
    await waitFor(() => expect(broadcasts()).toHaveLength(1));
    expect(broadcasts()[0]).toMatchObject({ title: 'Maintenance tonight', body: 'We restart at 22:00.', translations: { zh: { title: '今晚维护', body: '我们将在 22:00 重启。' } } });
    await waitFor(() => expect(screen.getByLabelText('Chinese title')).toHaveValue(''));

    // Without a Chinese text, none is sent: everyone gets the default one.
    await fill(screen.getByLabelText(/Title/), 'Hi');
    await fill(screen.getByLabelText(/Message/), 'New models.');
    await send();
    await waitFor(() => expect(broadcasts()).toHaveLength(2));
    expect(broadcasts()[1]).not.toHaveProperty('translations');
  });

  it('a retry after a failure is the same broadcast (same request id); the next message is a new one', async () => {
    await renderInApp(<NotificationsTab />, { apiBase: server.url, user: admin });
    await userEvent.click(screen.getByRole('radio', { name: 'One user' }));
    await fill(screen.getByLabelText('User id'), 'u42');
    await fill(screen.getByLabelText(/Title/), 'Maintenance tonight');
    await fill(screen.getByLabelText(/Link/), '/pricing');
    await fill(screen.getByLabelText(/Message/), 'Servers update at 22:00.');
    failures = 1;
    await send();
    expect(await screen.findByText('The database is busy, try again.')).toBeVisible();
    expect(screen.getByLabelText(/Title/)).toHaveValue('Maintenance tonight');

    await send();
    expect(await screen.findByText('Sent to 3 users.', { selector: 'div' })).toBeVisible();
    const [first, second] = broadcasts();
    expect(first).toMatchObject({ audience: 'user', userId: 'u42', title: 'Maintenance tonight', link: '/pricing' });
    expect(second).toEqual(first);
    expect(screen.getByLabelText(/Title/)).toHaveValue('');

    await userEvent.click(screen.getByRole('radio', { name: 'All users' }));
    await fill(screen.getByLabelText(/Title/), 'Hi');
    await fill(screen.getByLabelText(/Message/), 'New models.');
    await send();
    await waitFor(() => expect(broadcasts()).toHaveLength(3));
    expect(broadcasts()[2]!.requestId).not.toBe(first!.requestId);
  });
});
