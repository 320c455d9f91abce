import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotificationBell, UNREAD_REFRESH_MS } from '../../../components/notifications/notification-bell.tsx';
import { serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';
import { fakeInbox, notification } from './fake-notifications.ts';

const { inbox, handler } = fakeInbox();
const server = serveTheseTests(handler);
const calls = (path: string) => server.requests.filter((r) => r.url.startsWith(path));
const countCalls = () => calls('/api/UserNotification/GetUnreadCount').length;

/** What the bell's badge shows ('' when it shows none). */
const shownCount = () => screen.queryByTestId('notification-count')?.textContent ?? '';

const unreadInvites = (n: number) =>
  Array.from({ length: n }, () => notification({ titleKey: 'notifications.inviteCredited.title', params: { points: 100, name: 'Bo***' } }));

beforeEach(() => {
  inbox.list = [];
});
afterEach(() => {
  vi.useRealTimers();
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
});

describe('NotificationBell', () => {
  it('is not there for a visitor, and asks the server nothing', async () => {
    await renderInApp(<NotificationBell onNavigate={vi.fn()} />, { apiBase: server.url, user: null });
    await act(async () => {});
    expect(screen.queryByTestId('notification-bell')).toBeNull();
    expect(countCalls()).toBe(0);
  });

  it('shows the unread count, 99+ above 99, nothing at 0, and stores it for the toolbar badge', async () => {
    inbox.list = unreadInvites(5);
    await renderInApp(<NotificationBell onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(shownCount()).toBe('5'));
    expect(screen.getByRole('button', { name: 'Notifications, 5 unread' })).toBeInTheDocument();
    await waitFor(() => expect(JSON.parse(localStorage.getItem('tandem.notifications.unread')!)).toEqual({ v: 1, value: 5 }));
    {
      inbox.list = unreadInvites(120);
      fireEvent.focus(window);
      await waitFor(() => expect(shownCount()).toBe('99+'));
      inbox.list = [];
      fireEvent.focus(window);
      await waitFor(() => expect(screen.queryByTestId('notification-count')).toBeNull());
      expect(screen.getByRole('button', { name: 'Notifications' })).toBeInTheDocument();
      await waitFor(() => expect(JSON.parse(localStorage.getItem('tandem.notifications.unread')!)).toEqual({ v: 1, value: 0 }));
    }
  });

  it('asks again when the page gets the focus or comes back into view, and not while hidden', async () => {
    inbox.list = unreadInvites(1);
    await renderInApp(<NotificationBell onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(shownCount()).toBe('1'));
    const before = countCalls();

    inbox.list = unreadInvites(2);
    fireEvent.focus(window);
    await waitFor(() => expect(shownCount()).toBe('2'));
    expect(countCalls()).toBe(before + 1);

    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    fireEvent(document, new Event('visibilitychange'));
    fireEvent.focus(window);
    await act(async () => {});
    expect(countCalls()).toBe(before + 1);

    inbox.list = unreadInvites(3);
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    fireEvent(document, new Event('visibilitychange'));
    await waitFor(() => expect(shownCount()).toBe('3'));
  });

  it('asks again every minute while the page is visible', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    inbox.list = unreadInvites(1);
    await renderInApp(<NotificationBell onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(shownCount()).toBe('1'));
    inbox.list = unreadInvites(4);
    await act(async () => void vi.advanceTimersByTime(UNREAD_REFRESH_MS - 1_000));
    expect(shownCount()).toBe('1');
    await act(async () => void vi.advanceTimersByTime(1_000));
    await waitFor(() => expect(shownCount()).toBe('4'));
  });

  it('opening the list refreshes the count from the list', async () => {
    inbox.list = unreadInvites(2);
    await renderInApp(<NotificationBell onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(shownCount()).toBe('2'));
    inbox.list = unreadInvites(7);
    await userEvent.click(screen.getByTestId('notification-bell'));
    await screen.findByRole('dialog', { name: 'Notifications' });
    await waitFor(() => expect(shownCount()).toBe('7'));
    expect(calls('/api/UserNotification/GetList')).toHaveLength(1);
  });
});
