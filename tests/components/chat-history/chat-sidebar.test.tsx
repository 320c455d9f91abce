import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatSidebar } from '../../../components/chat-history/chat-sidebar.tsx';
import { loginDialogAtom } from '../../../shared/atoms/login-dialog.ts';
import type { ChatSessionItem } from '../../../shared/contracts/chat.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { intersectAll, renderInApp, testUser } from '../../helpers/render-app.tsx';

let sessions: ChatSessionItem[];

const session = (i: number): ChatSessionItem => ({
  chatSessionId: `s${i}`,
  sessionTitle: `Chat number ${i}`,
  sessionDescribe: '',
  createTime: '2026-11-20T10:00:00.000Z',
  lastActiveTime: '2026-11-20T10:00:00.000Z',
  pinned: false,
  answering: false,
});

/** The server side of the sidebar: sessions in memory, answered as the real API does. */
const server = serveTheseTests(
  fakeApi({
    '/api/System/GetSettingListAll': answer([{ settingKey: 'vip_url', settingValue: 'https://example.com/pricing' }]),
    '/api/Chat/GetChatSessionListBySelf': (_req, res, url) => {
      const page = Number(url.searchParams.get('page'));
      const count = Number(url.searchParams.get('count'));
      const title = url.searchParams.get('sessionTitle') ?? '';
      const matching = sessions.filter((s) => s.sessionTitle.includes(title));
      return sendEnvelope(res, { Code: 10000, Data: { list: matching.slice((page - 1) * count, page * count), total: matching.length } });
    },
    '/api/Chat/SearchMessages': (_req, res, url) => {
      const q = url.searchParams.get('q') ?? '';
      const hits = q === 'tomato' ? [{ chatSessionId: 's7', sessionTitle: 'Chat number 7', chatMessageId: 'm70', field: 'output', snippet: '…grow a Tomato plant in sun', matchStart: 8, matchLength: 6, createTime: '2026-11-21T10:00:00.000Z' }] : [];
      return sendEnvelope(res, { Code: 10000, Data: { list: hits, total: hits.length ? 100 : 0 } });
    },
    '/api/Chat/UpdateSessionTitle': (req, res) => {
      const body = JSON.parse(req.body) as { chatSessionId: string; sessionTitle: string };
      sessions = sessions.map((s) => (s.chatSessionId === body.chatSessionId ? { ...s, sessionTitle: body.sessionTitle } : s));
      return sendEnvelope(res, { Code: 10000 });
    },
    '/api/Chat/DeleteSessions': (req, res) => {
      const body = JSON.parse(req.body) as { ids: string[]; isDelAll: boolean };
      const before = sessions.length;
      sessions = body.isDelAll ? [] : sessions.filter((s) => !body.ids.includes(s.chatSessionId));
      return sendEnvelope(res, { Code: 10000, Data: { deleted: before - sessions.length } });
    },
  }),
);
beforeEach(() => {
  sessions = Array.from({ length: 25 }, (_, i) => session(i + 1));
});

const calls = (path: string) => server.requests.filter((r) => r.url.startsWith(path));

describe('ChatSidebar', () => {
  it('asks a visitor to log in for new chat and search chat, with chat.notLoginTip', async () => {
    const onNavigate = vi.fn();
    const { store } = await renderInApp(<ChatSidebar onNavigate={onNavigate} />, { apiBase: server.url, user: null });
    await userEvent.click(screen.getByRole('button', { name: 'New chat' }));
    expect(store.get(loginDialogAtom)).toEqual({ open: true, notice: 'chat.notLoginTip' });
    await userEvent.click(screen.getByRole('button', { name: 'Search chat' }));
    expect(store.get(loginDialogAtom).open).toBe(true);
    expect(onNavigate).not.toHaveBeenCalled();
    expect(calls('/api/Chat/GetChatSessionListBySelf')).toHaveLength(0);
  });

  it('loads the history 20 at a time, the next page when the end scrolls into view', async () => {
    await renderInApp(<ChatSidebar onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    await screen.findByText('Chat number 20');
    expect(screen.queryByText('Chat number 21')).toBeNull();
    expect(new URL(calls('/api/Chat/GetChatSessionListBySelf')[0].url, 'http://x').searchParams.get('count')).toBe('20');
    intersectAll();
    await screen.findByText('Chat number 25');
    const pages = calls('/api/Chat/GetChatSessionListBySelf').map((r) => new URL(r.url, 'http://x').searchParams.get('page'));
    expect(pages).toEqual(['1', '2']);
    // Everything is loaded: scrolling to the end again asks for nothing (a call would be made as the
    // list reacts, seen by the spy as it is made).
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    intersectAll();
    await act(async () => {});
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
    expect(calls('/api/Chat/GetChatSessionListBySelf')).toHaveLength(2);
  });

  it('refuses an empty rename with chat.sider.conversationNameRequire and renames otherwise', async () => {
    await renderInApp(<ChatSidebar onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    await screen.findByText('Chat number 1');
    await userEvent.click(screen.getByRole('button', { name: 'Actions for Chat number 1' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Rename', hidden: true }));
    const input = screen.getByRole('textbox', { name: 'Chat name' });
    await userEvent.clear(input);
    await userEvent.type(input, '   {Enter}');
    expect(await screen.findByText('Chat name is required')).toBeInTheDocument();
    expect(calls('/api/Chat/UpdateSessionTitle')).toHaveLength(0);

    await userEvent.clear(input);
    await userEvent.type(input, 'Trip plans{Enter}');
    await screen.findByText('Trip plans');
    expect(JSON.parse(calls('/api/Chat/UpdateSessionTitle')[0].body)).toEqual({ chatSessionId: 's1', sessionTitle: 'Trip plans' });
    expect(calls('/api/Chat/UpdateSessionTitle')[0].headers['content-type']).toBe('application/json-patch+json');
    expect(await screen.findByText('Chat renamed')).toBeInTheDocument();
  });

  it('deleting the open chat removes it and goes to /', async () => {
    const onNavigate = vi.fn();
    await renderInApp(<ChatSidebar activeSessionId="s2" onNavigate={onNavigate} />, { apiBase: server.url, user: testUser });
    await screen.findByText('Chat number 2');
    await userEvent.click(screen.getByRole('button', { name: 'Actions for Chat number 2' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this chat?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Chat number 2')).toBeNull());
    expect(JSON.parse(calls('/api/Chat/DeleteSessions')[0].body)).toEqual({ ids: ['s2'], isDelAll: false });
    expect(onNavigate).toHaveBeenCalledWith('/');
    expect(await screen.findByText('Chat deleted')).toBeInTheDocument();
  });

  it('delete all asks first, then clears the list and goes to /', async () => {
    const onNavigate = vi.fn();
    await renderInApp(<ChatSidebar onNavigate={onNavigate} />, { apiBase: server.url, user: testUser });
    await screen.findByText('Chat number 1');
    await userEvent.click(screen.getByRole('button', { name: 'History actions' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete all chats', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete all chats?' });
    expect(calls('/api/Chat/DeleteSessions')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete all chats' }));
    await screen.findByText('No chats yet');
    expect(JSON.parse(calls('/api/Chat/DeleteSessions')[0].body)).toEqual({ ids: [], isDelAll: true });
    expect(onNavigate).toHaveBeenCalledWith('/');
  });

  it('search queries sessionTitle with page 1 and count 10; a result opens and moves to the top', async () => {
    const onNavigate = vi.fn();
    await renderInApp(<ChatSidebar onNavigate={onNavigate} />, { apiBase: server.url, user: testUser });
    await screen.findByText('Chat number 1');
    await userEvent.click(screen.getByRole('button', { name: 'Search chat' }));
    const box = await screen.findByRole('textbox', { name: 'Search chats and messages' });
    // Enter searches at once (typing alone searches once it pauses: search-chat-dialog.test.tsx).
    await userEvent.type(box, 'number 2');
    fireEvent.keyDown(box, { key: 'Enter' });
    const dialog = await screen.findByRole('dialog', { name: 'Search chat' });
    await within(dialog).findByText('Chat number 25');
    const query = new URL(calls('/api/Chat/GetChatSessionListBySelf').findLast((r) => r.url.includes('sessionTitle'))!.url, 'http://x').searchParams;
    expect(Object.fromEntries(query)).toEqual({ page: '1', count: '10', sessionTitle: 'number 2' });
    await userEvent.click(within(dialog).getByText('Chat number 25'));
    expect(onNavigate).toHaveBeenCalledWith('/s25');
    const history = screen.getByRole('navigation', { name: 'Chat history' });
    expect(within(history).getAllByRole('listitem')[0]).toHaveTextContent('Chat number 25');
  });

  it('search also finds text inside messages: the match is marked, and a hit opens its chat at that message', async () => {
    const onNavigate = vi.fn();
    await renderInApp(<ChatSidebar onNavigate={onNavigate} />, { apiBase: server.url, user: testUser });
    await screen.findByText('Chat number 1');
    await userEvent.click(screen.getByRole('button', { name: 'Search chat' }));
    const box = await screen.findByRole('textbox', { name: 'Search chats and messages' });
    await userEvent.type(box, 'tomato{Enter}');
    const inMessages = await screen.findByRole('group', { name: 'In messages' });
    const mark = await within(inMessages).findByText('Tomato');
    expect(mark.tagName).toBe('MARK');
    expect(within(inMessages).getByText('More than 100 matches; showing the newest 1')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Chat titles' })).getByText('No chat matches this title')).toBeInTheDocument();
    const query = new URL(calls('/api/Chat/SearchMessages').at(-1)!.url, 'http://x').searchParams;
    expect(Object.fromEntries(query)).toEqual({ q: 'tomato', page: '1', count: '10' });
    await userEvent.click(mark);
    expect(onNavigate).toHaveBeenCalledWith('/s7?message=m70');
  });

  it('leads to saved answers, prompts and invitations from the sidebar, in English and Chinese', async () => {
    const onNavigate = vi.fn();
    await renderInApp(<ChatSidebar onNavigate={onNavigate} />, { apiBase: server.url, user: testUser });
    await userEvent.click(screen.getByRole('button', { name: 'Saved answers' }));
    await userEvent.click(screen.getByRole('button', { name: 'Prompts' }));
    await userEvent.click(screen.getByRole('button', { name: 'Invite friends' }));
    expect(onNavigate.mock.calls).toEqual([['/ans-fav/list'], ['/prompt_setting'], ['/invited']]);
    await act(() => setLanguage('zh'));
    expect(screen.getByRole('button', { name: '收藏的回答' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '提示词' })).toBeInTheDocument();
  });

  it('shows go-premium and the free plan card without a VIP order; the tier colour and expiry with one', async () => {
    const first = await renderInApp(<ChatSidebar onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    expect(screen.getByRole('button', { name: 'Go premium' })).toBeInTheDocument();
    expect(screen.getByTestId('vip-card')).toHaveTextContent('free version');
    first.unmount();

    const vipOrder = { vipOrderId: 'o1', vipPackageLevel: 2, vipPackageName: 'Advanced', endTime: '2027-01-31T12:00:00.000Z' };
    await renderInApp(<ChatSidebar onNavigate={vi.fn()} />, { apiBase: server.url, user: { ...testUser, vipOrder } });
    expect(screen.queryByRole('button', { name: 'Go premium' })).toBeNull();
    const card = screen.getByTestId('vip-card');
    expect(card).toHaveAttribute('data-tier', '2');
    expect(card).toHaveTextContent('Advanced');
    expect(card).toHaveTextContent('Expires 2027-01-31');
  });
});
