import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NotificationBell } from '../../../components/notifications/notification-bell.tsx';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';
import { fakeInbox, notification } from './fake-notifications.ts';

const { inbox, handler } = fakeInbox();
const server = serveTheseTests(handler);
const calls = (path: string) => server.requests.filter((r) => r.url.startsWith(path));

beforeEach(() => {
  inbox.list = [];
});

/** Renders the bell signed in and opens its list; answers the list and the navigate spy. */
async function openList(options: { isH5?: boolean } = {}) {
  const onNavigate = vi.fn();
  await renderInApp(<NotificationBell onNavigate={onNavigate} />, { apiBase: server.url, user: testUser, platform: { isH5: options.isH5 ?? false } });
  await userEvent.click(await screen.findByTestId('notification-bell'));
  const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
  return { dialog, onNavigate };
}

const items = () => screen.queryAllByTestId('notification-item');
const itemText = (i: number) => items()[i].textContent ?? '';

describe('the notification list', () => {
  it("renders each key's title and body with its parameters, newest first", async () => {
    inbox.list = [
      notification({ titleKey: 'notifications.inviteCredited.title', params: { points: 100, name: 'Bo***' } }),
      notification({ titleKey: 'notifications.invitedWelcome.title', params: { name: 'Ada' } }),
      notification({ kind: 'checkin', titleKey: 'notifications.checkinStreak.title', params: { days: 7, points: 20 } }),
      notification({ kind: 'redeem', titleKey: 'notifications.redeem.title', params: { points: 50, planDays: 0 } }),
      notification({ kind: 'redeem', titleKey: 'notifications.redeem.title', params: { points: 0, planDays: 30 } }),
      notification({ kind: 'redeem', titleKey: 'notifications.redeem.title', params: { points: 10, planDays: 7 } }),
    ];
    await openList();
    await waitFor(() => expect(items()).toHaveLength(6));
    expect(itemText(0)).toContain('You earned 100 points');
    expect(itemText(0)).toContain('Bo***, whom you invited, has started chatting: 100 points were added to your balance.');
    expect(itemText(1)).toContain('Welcome!');
    expect(itemText(1)).toContain("You joined through Ada's invitation.");
    expect(itemText(2)).toContain('7-day check-in streak!');
    expect(itemText(2)).toContain('You have checked in 7 days in a row: 20 bonus points were added to your balance.');
    expect(itemText(3)).toContain('Code redeemed');
    expect(itemText(3)).toContain('50 points were added to your balance.');
    expect(itemText(4)).toContain('30 days were added to your plan.');
    expect(itemText(5)).toContain('10 points and 7 plan days were added to your account.');
    // Every one is unread, and says so.
    expect(items().every((item) => item.dataset.unread === 'true')).toBe(true);
    expect(within(items()[0]).getByText('Unread:', { exact: false })).toBeInTheDocument();
    expect(screen.getByText('6 unread')).toBeInTheDocument();
  });

  it('renders a key it has no text for as a generic notification, never the raw key', async () => {
    inbox.list = [
      notification({ kind: 'gift', titleKey: 'notifications.giftFromTheFuture.title', params: { plan: 'Pro', endDate: '2027-01-01' }, link: '/subscription' }),
      notification({ kind: 'other', titleKey: 'loginPage.title', bodyKey: 'loginPage.tagline' }),
    ];
    const { dialog } = await openList();
    await waitFor(() => expect(items()).toHaveLength(2));
    for (const i of [0, 1]) {
      expect(itemText(i)).toContain('New notification');
      expect(itemText(i)).toContain('There is an update about your account.');
    }
    expect(dialog.textContent).not.toMatch(/notifications\.|loginPage\./);
  });

  it("shows a broadcast's own title and body as text, never as HTML", async () => {
    const html = '<b>Big</b> news <img src=x onerror="window.__pwned = true">';
    inbox.list = [
      notification({ kind: 'broadcast', titleKey: 'notifications.broadcast.title', params: { title: '<i>Hello</i> all', body: html } }),
    ];
    const { dialog } = await openList();
    await waitFor(() => expect(items()).toHaveLength(1));
    expect(itemText(0)).toContain('<i>Hello</i> all');
    expect(itemText(0)).toContain(html);
    expect(dialog.querySelector('b, i, img[src="x"]')).toBeNull();
    expect((window as { __pwned?: boolean }).__pwned).toBeUndefined();
  });

  it('a click marks the notification read and follows its in-app link; a link off the app is not followed', async () => {
    inbox.list = [
      notification({ titleKey: 'notifications.inviteCredited.title', params: { points: 100, name: 'Bo***' }, link: '/invited' }),
      notification({ titleKey: 'notifications.invitedWelcome.title', params: { name: 'Ada' }, link: '//evil.example/phish' }),
      notification({ titleKey: 'notifications.invitedWelcome.title', params: { name: 'Cy' }, read: true }),
    ];
    const { onNavigate } = await openList();
    await waitFor(() => expect(items()).toHaveLength(3));
    expect(screen.getByTestId('notification-count').textContent).toBe('2');

    await userEvent.click(within(items()[1]).getByRole('button'));
    await waitFor(() => expect(items()[1].dataset.unread).toBeUndefined());
    expect(JSON.parse(calls('/api/UserNotification/Read')[0].body)).toEqual({ ids: [inbox.list[1].id] });
    expect(onNavigate).not.toHaveBeenCalled();
    expect(screen.getByTestId('notification-count').textContent).toBe('1');

    // Already read: a click asks nothing of the server.
    await userEvent.click(within(items()[2]).getByRole('button'));
    expect(calls('/api/UserNotification/Read')).toHaveLength(1);

    await userEvent.click(within(items()[0]).getByRole('button'));
    expect(onNavigate).toHaveBeenCalledWith('/invited');
    await waitFor(() => expect(calls('/api/UserNotification/Read')).toHaveLength(2));
    await waitFor(() => expect(screen.queryByTestId('notification-count')).toBeNull());
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Notifications' })).toBeNull());
  });

  it('"Mark all as read" reads them all', async () => {
    inbox.list = [
      notification({ titleKey: 'notifications.invitedWelcome.title', params: { name: 'Ada' } }),
      notification({ titleKey: 'notifications.inviteCredited.title', params: { points: 100, name: 'Bo***' } }),
    ];
    await openList();
    await waitFor(() => expect(items()).toHaveLength(2));
    await userEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(items().every((item) => item.dataset.unread === undefined)).toBe(true));
    expect(calls('/api/UserNotification/ReadAll')).toHaveLength(1);
    expect(screen.queryByTestId('notification-count')).toBeNull();
    expect(screen.getByText('All caught up')).toBeInTheDocument();
    // Nothing left to read: the button goes.
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });

  it('loads 20 at a time, the next page on "Load more"', async () => {
    inbox.list = Array.from({ length: 23 }, (_, i) => notification({ titleKey: 'notifications.invitedWelcome.title', params: { name: `User ${i + 1}` } }));
    await openList();
    await waitFor(() => expect(items()).toHaveLength(20));
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(items()).toHaveLength(23));
    expect(itemText(22)).toContain('User 23');
    expect(calls('/api/UserNotification/GetList').map((r) => new URL(r.url, 'http://x').searchParams.get('page'))).toEqual(['1', '2']);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('says so when there are none', async () => {
    await openList();
    expect(await screen.findByText(/No notifications yet/)).toBeInTheDocument();
  });

  it('says so when the list fails, and tries again', async () => {
    server.handle(
      fakeInbox({ '/api/UserNotification/GetList': (_req, res) => sendEnvelope(res, { Code: 10400, Msg: 'nope' }) }).handler,
    );
    await openList();
    expect(await screen.findByRole('alert')).toHaveTextContent("Couldn't load your notifications.");
    server.handle(handler);
    inbox.list = [notification({ titleKey: 'notifications.invitedWelcome.title', params: { name: 'Ada' } })];
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(items()).toHaveLength(1));
  });

  it('speaks Chinese', async () => {
    inbox.list = [
      notification({ titleKey: 'notifications.inviteCredited.title', params: { points: 100, name: 'Bo***' } }),
      notification({ kind: 'gift', titleKey: 'notifications.giftFromTheFuture.title', params: { plan: 'Pro' } }),
    ];
    const onNavigate = vi.fn();
    await renderInApp(<NotificationBell onNavigate={onNavigate} />, { apiBase: server.url, user: testUser });
    await setLanguage('zh');
    await userEvent.click(await screen.findByTestId('notification-bell'));
    await screen.findByRole('dialog', { name: '通知' });
    await waitFor(() => expect(items()).toHaveLength(2));
    expect(itemText(0)).toContain('你获得了 100 积分');
    expect(itemText(1)).toContain('新通知');
    expect(screen.getByRole('button', { name: '全部标为已读' })).toBeInTheDocument();
  });
});
