import type { ServerResponse } from 'node:http';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_COUNT_WAIT, NotificationBell, UNREAD_REFRESH_MS } from '../../../components/notifications/notification-bell.tsx';
import { unreadCountQuery } from '../../../shared/api/notifications.ts';
import { UNREAD_STREAM_TIMING } from '../../../shared/api/notification-events.ts';
import { authActionAtom } from '../../../shared/atoms/auth.ts';
import { serveTheseTests, type Route } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';
import { fakeInbox, notification } from './fake-notifications.ts';

/** The live stream's route: absent (10404, as from a server without it) unless a test opens it. */
let events: Route = (_req, res) => sendEnvelope(res, { Code: 10404, Msg: 'not found' });
/** While set, the count route answers only once it resolves (with the count as it was when asked). */
let countHeld: Promise<void> | null = null;
/** Told when the count route is asked, before it answers. */
let onCountAsked: (() => void) | null = null;
const { inbox, handler } = fakeInbox({
  '/api/UserNotification/Events': (req, res, url) => events(req, res, url),
  '/api/UserNotification/GetUnreadCount': async (_req, res) => {
    onCountAsked?.();
    const unread = inbox.list.filter((n) => !n.read).length;
    await countHeld;
    sendEnvelope(res, { Code: 10000, Data: { unread } });
  },
});
const server = serveTheseTests(handler);
const calls = (path: string) => server.requests.filter((r) => r.url.startsWith(path));
const countCalls = () => calls('/api/UserNotification/GetUnreadCount').length;

/** What the bell's badge shows ('' when it shows none). */
const shownCount = () => screen.queryByTestId('notification-count')?.textContent ?? '';

const unreadInvites = (n: number) =>
  Array.from({ length: n }, () => notification({ titleKey: 'notifications.inviteCredited.title', params: { points: 100, name: 'Bo***' } }));

beforeEach(() => {
  inbox.list = [];
  events = (_req, res) => sendEnvelope(res, { Code: 10404, Msg: 'not found' });
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

  it('follows the count the server pushes, without asking for it, and opens the stream again when it drops; a logout closes it', async () => {
    const firstRetry = UNREAD_STREAM_TIMING.firstRetryMs;
    UNREAD_STREAM_TIMING.firstRetryMs = 10;
    // However slow the machine, the stream's first count comes before the badge would ask for it.
    const firstCountWait = FIRST_COUNT_WAIT.ms;
    FIRST_COUNT_WAIT.ms = 60_000;
    const streams: ServerResponse[] = [];
    events = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ unread: inbox.list.length })}\n\n`);
      streams.push(res);
    };
    const push = (unread: number) => streams.at(-1)!.write(`data: ${JSON.stringify({ unread })}\n\n`);
    try {
      inbox.list = unreadInvites(1);
      const { store, queryClient } = await renderInApp(<NotificationBell onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
      await waitFor(() => expect(shownCount()).toBe('1'));
      await waitFor(() => expect(streams).toHaveLength(1));
      expect(calls('/api/UserNotification/Events')[0]!.headers.authorization).toBe('Bearer test-token');
      // The stream's first event is the count: it is not asked for besides.
      expect(countCalls()).toBe(0);
      fireEvent.focus(window);
      await act(async () => {});

      push(5);
      await waitFor(() => expect(shownCount()).toBe('5'));
      expect(screen.getByRole('button', { name: 'Notifications, 5 unread' })).toBeInTheDocument();
      await waitFor(() => expect(JSON.parse(localStorage.getItem('tandem.notifications.unread')!)).toEqual({ v: 1, value: 5 }));
      push(0);
      await waitFor(() => expect(screen.queryByTestId('notification-count')).toBeNull());
      expect(countCalls()).toBe(0);

      // The server ends the stream (a restart): the bell opens a new one and follows it. The count it
      // asks for meanwhile answers late, after the new stream's: that older count must not win.
      let answerCount!: () => void;
      countHeld = new Promise((resolve) => (answerCount = resolve));
      // The new stream answers once the bell, seeing the old one drop, has asked for the count: on a
      // machine however slow, the count is asked while no stream is up (else the reconnection can win
      // the race and the bell never asks).
      const asked = new Promise<void>((resolve) => (onCountAsked = resolve));
      const open = events;
      events = async (req, res, url) => {
        await asked;
        return open(req, res, url);
      };
      streams[0]!.end();
      await waitFor(() => expect(streams).toHaveLength(2));
      push(2);
      await waitFor(() => expect(shownCount()).toBe('2'));
      await waitFor(() => expect(countCalls()).toBe(1));
      answerCount();
      // Until the count asked for is no longer being fetched: answered and taken, or given up.
      await waitFor(() => expect(queryClient.isFetching({ queryKey: unreadCountQuery('test-token').queryKey })).toBe(0));
      expect(shownCount()).toBe('2');

      const closed = new Promise<void>((resolve) => streams[1]!.once('close', () => resolve()));
      await act(async () => void (await store.set(authActionAtom, { type: 'logout' })));
      await closed;
      expect(screen.queryByTestId('notification-bell')).toBeNull();
    } finally {
      UNREAD_STREAM_TIMING.firstRetryMs = firstRetry;
      FIRST_COUNT_WAIT.ms = firstCountWait;
      countHeld = null;
      onCountAsked = null;
      for (const res of streams) res.end();
    }
  });

  it('asks for the count when the stream opens but sends nothing for a while (a proxy holding it)', async () => {
    const wait = FIRST_COUNT_WAIT.ms;
    FIRST_COUNT_WAIT.ms = 200;
    const held: ServerResponse[] = [];
    events = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      held.push(res);
    };
    try {
      inbox.list = unreadInvites(3);
      await renderInApp(<NotificationBell onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
      await waitFor(() => expect(held).toHaveLength(1));
      expect(countCalls()).toBe(0);
      await waitFor(() => expect(shownCount()).toBe('3'));
      expect(countCalls()).toBe(1);
    } finally {
      FIRST_COUNT_WAIT.ms = wait;
      for (const res of held) res.end();
    }
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
