import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatSidebar } from '../../../components/chat-history/chat-sidebar.tsx';
import { groupSessions } from '../../../components/chat-history/history-groups.ts';
import type { ChatSessionItem } from '../../../shared/contracts/chat.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { intersectAll, renderInApp, testUser } from '../../helpers/render-app.tsx';

/** "Now" for these tests: 20 November 2026, 15:00 in the machine's time zone. */
const NOW = new Date(2026, 10, 20, 15, 0);

/** A time in the machine's time zone, as the server sends it (ISO, UTC). */
const local = (year: number, month: number, day: number, hour = 12, minute = 0) => new Date(year, month - 1, day, hour, minute).toISOString();

/** A chat as the fake server keeps it: `pinnedAt` orders the pinned ones (larger: pinned later). */
type Stored = ChatSessionItem & { pinnedAt?: number };

const chat = (id: string, lastActiveTime: string, pinnedAt?: number): Stored => ({
  chatSessionId: id,
  sessionTitle: `Chat ${id}`,
  sessionDescribe: '',
  createTime: lastActiveTime,
  lastActiveTime,
  pinned: pinnedAt !== undefined,
  answering: false,
  pinnedAt,
});

let sessions: Stored[];
let pinClock = 100;

/** The server's order: the pinned chats first, most recently pinned first, then the others by last activity. */
function inServerOrder(): ChatSessionItem[] {
  const pinned = sessions.filter((s) => s.pinnedAt !== undefined).sort((a, b) => b.pinnedAt! - a.pinnedAt!);
  const others = sessions.filter((s) => s.pinnedAt === undefined).sort((a, b) => Date.parse(b.lastActiveTime) - Date.parse(a.lastActiveTime));
  return [...pinned, ...others].map(({ pinnedAt, ...item }) => ({ ...item, pinned: pinnedAt !== undefined }));
}

const server = serveTheseTests(
  fakeApi({
    '/api/Chat/GetChatSessionListBySelf': (_req, res, url) => {
      const page = Number(url.searchParams.get('page'));
      const count = Number(url.searchParams.get('count'));
      const all = inServerOrder();
      return sendEnvelope(res, { Code: 10000, Data: { list: all.slice((page - 1) * count, page * count), total: all.length } });
    },
    '/api/Chat/PinSession': (req, res) => {
      const body = JSON.parse(req.body) as { chatSessionId: string; pinned: boolean };
      const found = sessions.find((s) => s.chatSessionId === body.chatSessionId);
      if (!found) return sendEnvelope(res, { Code: 10404, Msg: 'Not found' });
      found.pinnedAt = body.pinned ? ++pinClock : undefined;
      found.pinned = body.pinned;
      return sendEnvelope(res, { Code: 10000 });
    },
  }),
);

/** One chat in each section, and a few on its edges. */
const everySection = () => [
  chat('pinned-old', local(2026, 3, 2), 1),
  chat('today-morning', local(2026, 11, 20, 9)),
  chat('today-midnight', local(2026, 11, 20, 0, 5)),
  chat('yesterday-late', local(2026, 11, 19, 23, 50)),
  chat('three-days', local(2026, 11, 17)),
  chat('seven-days', local(2026, 11, 13, 0, 30)),
  chat('eight-days', local(2026, 11, 12, 23)),
  chat('thirty-days', local(2026, 10, 21, 8)),
  chat('october', local(2026, 10, 20, 23)),
  chat('september', local(2026, 9, 5)),
  chat('last-december', local(2025, 12, 31)),
];

beforeEach(() => {
  vi.setSystemTime(NOW);
  sessions = everySection();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

const calls = (path: string) => server.requests.filter((r) => r.url.startsWith(path));
const headings = () => within(screen.getByRole('navigation')).getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
/** The chats of the section named `name`, in the order shown. */
const section = (name: string) => within(screen.getByRole('list', { name })).getAllByRole('listitem').map((li) => li.textContent);

/** Opens the menu of the chat `title` ("Actions for …", in Chinese "… 的操作") and clicks `item`. */
async function openMenuItem(title: string, item: string, menu = `Actions for ${title}`) {
  await userEvent.click(screen.getByRole('button', { name: menu }));
  await userEvent.click(await screen.findByRole('menuitem', { name: item, hidden: true }));
}

describe('the history in sections by date', () => {
  it('shows Pinned, Today, Yesterday, Previous 7 days, Previous 30 days, then each month, by last activity in local time', async () => {
    await renderInApp(<ChatSidebar onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    await screen.findByText('Chat today-morning');
    expect(headings()).toEqual(['Pinned', 'Today', 'Yesterday', 'Previous 7 days', 'Previous 30 days', 'October 2026', 'September 2026', 'December 2025']);
    expect(section('Pinned')).toEqual(['Chat pinned-old']);
    expect(section('Today')).toEqual(['Chat today-morning', 'Chat today-midnight']);
    expect(section('Yesterday')).toEqual(['Chat yesterday-late']);
    expect(section('Previous 7 days')).toEqual(['Chat three-days', 'Chat seven-days']);
    expect(section('Previous 30 days')).toEqual(['Chat eight-days', 'Chat thirty-days']);
    expect(section('October 2026')).toEqual(['Chat october']);
    expect(section('December 2025')).toEqual(['Chat last-december']);
    // The headers are not items of the lists of chats; only a pinned chat has the pin mark.
    expect(within(screen.getByRole('list', { name: 'Pinned' })).getByTestId('session-pinned')).toBeInTheDocument();
    expect(screen.getAllByTestId('session-pinned')).toHaveLength(1);
  });

  it('an older server without lastActiveTime and pinned: sections by the creation time, nothing pinned', async () => {
    server.handle(
      fakeApi({
        '/api/Chat/GetChatSessionListBySelf': (_req, res) =>
          sendEnvelope(res, {
            Code: 10000,
            Data: { list: [{ chatSessionId: 'old', sessionTitle: 'Chat old', sessionDescribe: '', createTime: local(2026, 11, 19, 8), answering: false }], total: 1 },
          }),
      }),
    );
    await renderInApp(<ChatSidebar onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    await screen.findByText('Chat old');
    expect(headings()).toEqual(['Yesterday']);
    expect(screen.queryByTestId('session-pinned')).toBeNull();
  });

  it('loads the next page into the section the first page ended in, with no second header', async () => {
    // 25 chats two days apart: page 1 ends inside October, and page 2 is all October.
    sessions = Array.from({ length: 25 }, (_, i) => chat(`n${i}`, local(2026, 11, 20 - 2 * i, 12)));
    await renderInApp(<ChatSidebar onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    await screen.findByText('Chat n19');
    expect(headings()).toEqual(['Today', 'Previous 7 days', 'Previous 30 days', 'October 2026']);
    expect(section('October 2026')).toEqual(['Chat n16', 'Chat n17', 'Chat n18', 'Chat n19']);
    intersectAll();
    await screen.findByText('Chat n24');
    expect(headings()).toEqual(['Today', 'Previous 7 days', 'Previous 30 days', 'October 2026']);
    expect(section('October 2026')).toEqual(['Chat n16', 'Chat n17', 'Chat n18', 'Chat n19', 'Chat n20', 'Chat n21', 'Chat n22', 'Chat n23', 'Chat n24']);
    expect(calls('/api/Chat/GetChatSessionListBySelf').map((r) => new URL(r.url, 'http://x').searchParams.get('page'))).toEqual(['1', '2']);
  });

  it('the headers and month names in Chinese', async () => {
    await renderInApp(<ChatSidebar onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    await setLanguage('zh');
    await screen.findByText('Chat today-morning');
    await waitFor(() => expect(headings()).toEqual(['已置顶', '今天', '昨天', '过去 7 天', '过去 30 天', '2026年10月', '2026年9月', '2025年12月']));
    await openMenuItem('Chat pinned-old', '取消置顶', 'Chat pinned-old 的操作');
    await waitFor(() => expect(headings()).not.toContain('已置顶'));
    await openMenuItem('Chat september', '置顶', 'Chat september 的操作');
    await waitFor(() => expect(section('已置顶')).toEqual(['Chat september']));
  });
});

describe('pinning a chat from its menu', () => {
  it('Pin moves the chat into Pinned, newest pin first, with its mark; Unpin puts it back in its date', async () => {
    await renderInApp(<ChatSidebar onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    await screen.findByText('Chat october');
    await openMenuItem('Chat october', 'Pin');
    await waitFor(() => expect(section('Pinned')).toEqual(['Chat october', 'Chat pinned-old']));
    expect(JSON.parse(calls('/api/Chat/PinSession')[0].body)).toEqual({ chatSessionId: 'october', pinned: true });
    expect(calls('/api/Chat/PinSession')[0].headers['content-type']).toBe('application/json-patch+json');
    expect(headings()).not.toContain('October 2026');
    expect(within(screen.getByRole('list', { name: 'Pinned' })).getAllByTestId('session-pinned')).toHaveLength(2);

    await openMenuItem('Chat october', 'Unpin');
    await waitFor(() => expect(section('October 2026')).toEqual(['Chat october']));
    expect(section('Pinned')).toEqual(['Chat pinned-old']);
    expect(JSON.parse(calls('/api/Chat/PinSession')[1].body)).toEqual({ chatSessionId: 'october', pinned: false });
    // Moved in the loaded list, as a rename is: the list was not asked for again.
    expect(calls('/api/Chat/GetChatSessionListBySelf')).toHaveLength(1);
  });

  it('a chat unpinned past the loaded pages: the list is asked for again, and the chat comes with the page it is on', async () => {
    // 22 chats: one pinned (last active long ago), then 21 of the last days: page 1 holds the pin and 19 of them.
    sessions = [chat('old-pin', local(2024, 1, 10), 1), ...Array.from({ length: 21 }, (_, i) => chat(`d${i}`, local(2026, 11, 20, 14, 59 - 2 * i)))];
    await renderInApp(<ChatSidebar onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    await screen.findByText('Chat d18');
    await openMenuItem('Chat old-pin', 'Unpin');
    // Page 1 again, now d0 to d19: the unpinned chat is on page 2.
    await waitFor(() => expect(calls('/api/Chat/GetChatSessionListBySelf')).toHaveLength(2));
    await screen.findByText('Chat d19');
    expect(screen.queryByRole('list', { name: 'Pinned' })).toBeNull();
    intersectAll();
    await screen.findByText('Chat d20');
    expect(section('Today')).toHaveLength(21);
    expect(section('January 2024')).toEqual(['Chat old-pin']);
  });

  it('a refused pin says so and moves nothing', async () => {
    await renderInApp(<ChatSidebar onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    await screen.findByText('Chat october');
    sessions = sessions.filter((s) => s.chatSessionId !== 'october');
    await openMenuItem('Chat october', 'Pin');
    expect(await screen.findByText('Could not pin the chat')).toBeInTheDocument();
    expect(section('October 2026')).toEqual(['Chat october']);
    expect(section('Pinned')).toEqual(['Chat pinned-old']);
  });
});

describe('groupSessions: the user’s time zone', () => {
  const at = (id: string, iso: string) => chat(id, iso);
  const keys = (list: ChatSessionItem[], now: Date) => groupSessions(list, now).map((g) => [g.key, g.sessions.map((s) => s.chatSessionId)]);

  it('puts a chat in the day and month of the time zone it is shown in', () => {
    const now = new Date('2026-11-20T07:00:00Z');
    const list = [at('late-utc', '2026-11-19T17:30:00Z'), at('month-edge', '2026-09-30T18:00:00Z')];
    vi.stubEnv('TZ', 'UTC');
    expect(keys(list, now)).toEqual([
      ['yesterday', ['late-utc']],
      ['2026-09', ['month-edge']],
    ]);
    // 01:30 on the 20th and 02:00 on 1 October in Shanghai (UTC+8).
    vi.stubEnv('TZ', 'Asia/Shanghai');
    expect(keys(list, now)).toEqual([
      ['today', ['late-utc']],
      ['2026-10', ['month-edge']],
    ]);
  });

  it('counts calendar days across a daylight-saving change', () => {
    // New York left daylight saving time on 1 November 2026: 7 days before 5 November 00:00 is 29 October 00:00 (EDT).
    vi.stubEnv('TZ', 'America/New_York');
    const now = new Date('2026-11-05T17:00:00Z');
    const list = [at('just-in', '2026-10-29T04:30:00Z'), at('just-out', '2026-10-29T03:30:00Z')];
    expect(keys(list, now)).toEqual([
      ['previous7Days', ['just-in']],
      ['previous30Days', ['just-out']],
    ]);
  });
});
