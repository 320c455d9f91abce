import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRouter } from '../../../components/app-shell/router.tsx';
import { AppRoutes } from '../../../components/layout/app-routes.tsx';
import type { ChatMessageItem, ChatSessionItem } from '../../../shared/contracts/chat.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import type { Platform } from '../../../shared/platform/platform.ts';
import { answer, answerChat, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { testModel } from '../../helpers/models.ts';
import { listedMessage } from '../../helpers/messages.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/**
 * The open chat's header (components/layout/chat-header.tsx) on the chat screen as the app routes
 * it: the title (renamed in place), the model the composer shows, Share, Export and Delete, on the
 * wide layout and in the narrow one's top bar; none on a new chat.
 */

let sessions: ChatSessionItem[];

const session = (id: string, title: string): ChatSessionItem => ({
  chatSessionId: id,
  sessionTitle: title,
  sessionDescribe: '',
  createTime: '2026-11-20T10:00:00.000Z',
  lastActiveTime: '2026-11-20T10:00:00.000Z',
  pinned: false,
  answering: false,
});

const message = (chatSessionId: string): ChatMessageItem =>
  listedMessage({ chatMessageId: `m-${chatSessionId}`, chatSessionId, inputMessage: 'Where should we stay in Kyoto?', outputMessage: 'Near Gion.' });

/** The server side of the chat screen: sessions in memory, answered as the real API does. */
const server = serveTheseTests(
  fakeApi({
    '/api/Chat/GetModelListAll': answer([testModel('basic', 0, { name: 'Basic Model' })]),
    '/api/Chat/GetChatSessionListBySelf': (_req, res) => sendEnvelope(res, { Code: 10000, Data: { list: sessions.slice(0, 20), total: sessions.length } }),
    '/api/Chat/GetChatSession': (_req, res, url) => {
      const found = sessions.find((s) => s.chatSessionId === url.searchParams.get('chatSessionId'));
      return sendEnvelope(res, found ? { Code: 10000, Data: found } : { Code: 10404, Msg: 'not found', Data: null });
    },
    '/api/Chat/GetChatMessageListBySelfSessionId': (_req, res, url) => {
      const id = url.searchParams.get('chatSessionId') ?? '';
      const found = sessions.some((s) => s.chatSessionId === id);
      return sendEnvelope(res, found ? { Code: 10000, Data: { list: [message(id)], total: 1 } } : { Code: 10404, Msg: 'not found', Data: null });
    },
    '/api/Chat/UpdateSessionTitle': (req, res) => {
      const body = JSON.parse(req.body) as { chatSessionId: string; sessionTitle: string };
      sessions = sessions.map((s) => (s.chatSessionId === body.chatSessionId ? { ...s, sessionTitle: body.sessionTitle } : s));
      return sendEnvelope(res, { Code: 10000 });
    },
    '/api/Chat/PinSession': (req, res) => {
      const body = JSON.parse(req.body) as { chatSessionId: string; pinned: boolean };
      sessions = sessions.map((s) => (s.chatSessionId === body.chatSessionId ? { ...s, pinned: body.pinned } : s));
      return sendEnvelope(res, { Code: 10000 });
    },
    '/api/Chat/DeleteSessions': (req, res) => {
      const body = JSON.parse(req.body) as { ids: string[] };
      sessions = sessions.filter((s) => !body.ids.includes(s.chatSessionId));
      return sendEnvelope(res, { Code: 10000, Data: { deleted: body.ids.length } });
    },
    '/api/Chat/GetShareList': answer([]),
    '/api/Browser/AddBrowser': answer(),
    '/api/Chat/AddMessage': (req, res) => {
      const { inputMessage } = JSON.parse(req.body) as { inputMessage: string };
      sessions = [session('s-new', inputMessage), ...sessions];
      return answerChat('Start at Todai-ji.', { ChatSessionId: 's-new' })(req, res, new URL(req.url, 'http://x'));
    },
  }),
);

beforeEach(() => {
  // s1 heads the history; s30 is further down than its first page (opened from a search or a link).
  sessions = [session('s1', 'Kyoto trip'), ...Array.from({ length: 30 }, (_, i) => session(`s${i + 2}`, `Older chat ${i + 2}`))];
});

const calls = (path: string) => server.requests.filter((r) => r.url.startsWith(path));

/** The app's routes at `path`: the wide web layout, or the narrow one (phone, side panel) with `isH5`. */
async function openAt(path: string, platform: Partial<Platform> = {}) {
  window.history.replaceState(null, '', path);
  return renderInApp(
    <AppRouter platform={{ isExtension: false }}>
      <AppRoutes />
    </AppRouter>,
    { apiBase: server.url, user: testUser, platform },
  );
}

/** The header's title (a heading), the button that renames the chat: the history lists a button of that name too. */
const titleButton = async (title: string) => within(await screen.findByRole('heading', { level: 1, name: title })).getByRole('button', { name: title });

/** Whether the open chat's header is showing: its title heading, its options button. */
const headerShown = () => screen.queryByRole('button', { name: 'Chat options' }) !== null;

describe("the open chat's header on the wide layout", () => {
  it("shows the chat's title as a heading, the composer's model, Share and the options", async () => {
    await openAt('/s1');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Kyoto trip' });
    const header = heading.closest('header')!;
    expect(header).toHaveAccessibleName('Open chat');
    expect(await within(header).findByTestId('chat-header-model')).toHaveTextContent('Model: Basic Model');
    expect(await screen.findByTestId('model-picker')).toHaveTextContent('Basic Model');
    expect(within(header).getByRole('button', { name: 'Share this chat' })).toBeInTheDocument();
    expect(within(header).getByRole('button', { name: 'Chat options' })).toBeInTheDocument();
  });

  it('renames in place: Escape cancels, an empty name is refused, Enter saves and the history follows', async () => {
    await openAt('/s1');
    await userEvent.click(await titleButton('Kyoto trip'));
    let input = screen.getByRole('textbox', { name: 'Chat name' });
    await userEvent.type(input, 'Osaka{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Chat name' })).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Kyoto trip' })).toBeInTheDocument();

    await userEvent.click(await titleButton('Kyoto trip'));
    input = screen.getByRole('textbox', { name: 'Chat name' });
    await userEvent.clear(input);
    await userEvent.type(input, '   {Enter}');
    expect(await screen.findByText('Chat name is required')).toBeInTheDocument();
    expect(calls('/api/Chat/UpdateSessionTitle')).toHaveLength(0);

    await userEvent.clear(input);
    await userEvent.type(input, 'Kyoto and Nara{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Kyoto and Nara' })).toBeInTheDocument();
    expect(JSON.parse(calls('/api/Chat/UpdateSessionTitle')[0].body)).toEqual({ chatSessionId: 's1', sessionTitle: 'Kyoto and Nara' });
    expect(await screen.findByText('Chat renamed')).toBeInTheDocument();
    // The history's entry is the same chat, renamed without a refetch.
    expect(await screen.findByRole('button', { name: 'Actions for Kyoto and Nara' })).toBeInTheDocument();
  });

  it('renames from the options menu too', async () => {
    await openAt('/s1');
    await userEvent.click(await screen.findByRole('button', { name: 'Chat options' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Rename', hidden: true }));
    const input = screen.getByRole('textbox', { name: 'Chat name' });
    expect(input).toHaveValue('Kyoto trip');
    await userEvent.clear(input);
    await userEvent.type(input, 'Trip notes{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Trip notes' })).toBeInTheDocument();
  });

  it('pins from the options menu: the history shows the chat under Pinned, and the menu then offers Unpin', async () => {
    await openAt('/s5');
    await userEvent.click(await screen.findByRole('button', { name: 'Chat options' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Pin', hidden: true }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Pinned' })).getByText('Older chat 5')).toBeInTheDocument());
    expect(JSON.parse(calls('/api/Chat/PinSession')[0]!.body)).toEqual({ chatSessionId: 's5', pinned: true });
    await userEvent.click(screen.getByRole('button', { name: 'Chat options' }));
    expect(await screen.findByRole('menuitem', { name: 'Unpin', hidden: true })).toBeInTheDocument();
  });

  it('deletes after the history’s question, then goes to a new chat with no header', async () => {
    await openAt('/s1');
    await userEvent.click(await screen.findByRole('button', { name: 'Chat options' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this chat?' });
    expect(dialog).toHaveTextContent('“Kyoto trip” will be deleted.');
    expect(calls('/api/Chat/DeleteSessions')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(location.pathname).toBe('/'));
    expect(JSON.parse(calls('/api/Chat/DeleteSessions')[0].body)).toEqual({ ids: ['s1'], isDelAll: false });
    expect(await screen.findByText('Chat deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('heading', { level: 1 })).toBeNull());
    expect(headerShown()).toBe(false);
    expect(screen.queryByRole('button', { name: 'Actions for Kyoto trip' })).toBeNull();
  });

  it('Share opens the share dialog for this chat; Export is in the options', async () => {
    await openAt('/s1');
    await userEvent.click(await screen.findByRole('button', { name: 'Share this chat' }));
    expect(await screen.findByRole('dialog', { name: 'Share “Kyoto trip”' })).toBeInTheDocument();
    expect(calls('/api/Chat/GetShareList').length).toBeGreaterThan(0);

    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Chat options' }));
    expect(await screen.findByRole('menuitem', { name: 'Export as Markdown', hidden: true })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Export as PDF', hidden: true })).toBeInTheDocument();
    // The Share button is beside the menu: the menu does not say it twice.
    expect(screen.queryByRole('menuitem', { name: 'Share…', hidden: true })).toBeNull();
  });

  it('asks the server for the title of a chat the history has not loaded', async () => {
    await openAt('/s30');
    expect(await screen.findByRole('heading', { level: 1, name: 'Older chat 30' })).toBeInTheDocument();
    expect(calls('/api/Chat/GetChatSession?chatSessionId=s30')).toHaveLength(1);
  });

  it('shows no header on a new chat', async () => {
    await openAt('/');
    expect(await screen.findByTestId('model-picker')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Actions for Kyoto trip' })).toBeInTheDocument();
    expect(headerShown()).toBe(false);
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Share this chat' })).toBeNull();
    expect(calls('/api/Chat/GetChatSession?')).toHaveLength(0);
  });

  it('shows none for a chat that is not found', async () => {
    await openAt('/gone');
    expect(await screen.findByText('Chat not found')).toBeInTheDocument();
    expect(headerShown()).toBe(false);
    expect(screen.queryByRole('button', { name: 'Share this chat' })).toBeNull();
  });

  it('appears once the first answer makes a new chat a saved one', async () => {
    await openAt('/');
    await screen.findByTestId('model-picker');
    expect(headerShown()).toBe(false);
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Plan a day in Nara');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(location.pathname).toBe('/s-new'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Plan a day in Nara' })).toBeInTheDocument();
    expect(headerShown()).toBe(true);
  });
});

describe("the open chat's header in Chinese", () => {
  it('names its region, buttons, model and menu in Chinese', async () => {
    await openAt('/s1');
    await screen.findByRole('heading', { level: 1, name: 'Kyoto trip' });
    await act(() => setLanguage('zh'));
    const header = screen.getByRole('heading', { level: 1, name: 'Kyoto trip' }).closest('header')!;
    expect(header).toHaveAccessibleName('当前对话');
    expect(within(header).getByRole('button', { name: '分享此对话' })).toHaveTextContent('分享');
    expect(await within(header).findByTestId('chat-header-model')).toHaveTextContent('模型：Basic Model');
    await userEvent.click(within(header).getByRole('button', { name: '对话选项' }));
    expect(await screen.findByRole('menuitem', { name: '重命名', hidden: true })).toBeInTheDocument();
  });
});

describe("the open chat's header in the narrow layout's top bar (phone, side panel)", () => {
  it('puts the title and model in the one top bar, every action in the options menu', async () => {
    await openAt('/s1', { isH5: true });
    const heading = await screen.findByRole('heading', { level: 1, name: 'Kyoto trip' });
    const bar = screen.getByRole('banner');
    expect(bar).toContainElement(heading);
    expect(screen.getAllByRole('banner')).toHaveLength(1);
    expect(within(bar).queryByText('Tandem')).toBeNull();
    expect(await within(bar).findByTestId('chat-header-model')).toHaveTextContent('Basic Model');
    expect(within(bar).getByRole('button', { name: 'New chat' })).toBeInTheDocument();
    // The title gives way to the bar's buttons, cut with an ellipsis.
    const title = await titleButton('Kyoto trip');
    expect(title).toHaveStyle({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });

    await userEvent.click(within(bar).getByRole('button', { name: 'Chat options' }));
    for (const name of ['Rename', 'Share…', 'Export as Markdown', 'Export as PDF', 'Delete']) {
      expect(await screen.findByRole('menuitem', { name, hidden: true }), name).toBeInTheDocument();
    }
    await userEvent.click(screen.getByRole('menuitem', { name: 'Share…', hidden: true }));
    expect(await screen.findByRole('dialog', { name: 'Share “Kyoto trip”' })).toBeInTheDocument();
  });

  it('renames in the top bar', async () => {
    await openAt('/s1', { isH5: true });
    await userEvent.click(await titleButton('Kyoto trip'));
    const input = within(screen.getByRole('banner')).getByRole('textbox', { name: 'Chat name' });
    await userEvent.clear(input);
    await userEvent.type(input, 'Kyoto in May{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Kyoto in May' })).toBeInTheDocument();
    expect(JSON.parse(calls('/api/Chat/UpdateSessionTitle')[0].body)).toEqual({ chatSessionId: 's1', sessionTitle: 'Kyoto in May' });
  });

  it('shows the app name and no chat actions on a new chat', async () => {
    await openAt('/', { isH5: true });
    const bar = screen.getByRole('banner');
    expect(within(bar).getByText('Tandem')).toBeInTheDocument();
    expect(await screen.findByTestId('model-picker')).toBeInTheDocument();
    expect(headerShown()).toBe(false);
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
  });
});
