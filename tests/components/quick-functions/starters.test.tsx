import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBrowser } from 'wxt/testing';
import type { Browser } from 'wxt/browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatView } from '../../../components/chat/chat-view.tsx';
import { chatTools } from '../../../components/chat/quick-functions.tsx';
import { readDocument } from '../../../shared/utils/read-document.ts';
import { answer, answerChat, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { fieldsOf, formOf } from '../../helpers/multipart.ts';
import { testModel } from '../../helpers/models.ts';
import { listedMessage } from '../../helpers/messages.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';
import { node, TREE } from './fake-quick-functions.ts';

const LONG = 'Sea otters hold hands while they sleep. '.repeat(10).trim();
const HISTORY = [
  listedMessage({
    chatMessageId: 'm1',
    chatSessionId: 's1',
    inputMessage: '',
    outputMessage: 'They hold hands so the current does not carry them apart.',
    quickFunction: { quickFunctionId: 'qf-explain', name: 'Explain', icon: '💡' },
    selection: { text: LONG, title: 'Otters at dawn', url: 'https://example.com/otters' },
    createTime: '2026-11-25T10:00:00.000Z',
    finishTime: '2026-11-25T10:00:01.000Z',
  }),
  listedMessage({
    chatMessageId: 'm2',
    chatSessionId: 's1',
    inputMessage: 'and this?',
    outputMessage: 'Also that.',
    quickFunction: null,
    // A page that named a script as its address: shown, never linked.
    selection: { text: 'Short bit', title: 'Odd page', url: 'javascript:alert(1)' },
    createTime: '2026-11-25T10:01:00.000Z',
    finishTime: '2026-11-25T10:01:01.000Z',
  }),
];

const server = serveTheseTests(
  fakeApi({
    '/api/Chat/GetModelListAll': answer([testModel('basic', 1)]),
    '/api/QuickFunction/GetQuickFunctionListAll2': answer(TREE),
    '/api/Chat/AddMessage': answerChat('Done.', { ChatSessionId: 's-new' }),
    '/api/Chat/GetChatMessageListBySelfSessionId': answer({ list: [...HISTORY].reverse(), total: 2 }),
    '/api/Chat/AddChatMedia': async (req, res) => {
      const fields = fieldsOf(await formOf(req));
      sendEnvelope(res, { Code: 10000, Data: { chatMediaId: 'tab-media-1', image: { imgSrcAll: '' }, pageFilePath: '', iconStr: '', pageUrl: fields.pageUrl, pageTitle: fields.pageTitle } });
    },
  }),
);

const sent = () => server.requests.filter((r) => r.url.includes('AddMessage')).map((r) => JSON.parse(r.body) as Record<string, unknown>);
const starterNames = async () => (await screen.findAllByTestId('qf-starter')).map((b) => b.textContent);

describe('chatTools', () => {
  it('opens groups, keeps what the chat can use, pinned first', () => {
    const tree = [...TREE, node('qf-hidden', 'Hidden', { online: false }), node('qf-pinned', 'Pinned one', { pinned: true })];
    expect(chatTools(tree, false).map((t) => t.name)).toEqual(['Pinned one', 'Explain', 'Fix grammar', 'French']);
    expect(chatTools(tree, true).map((t) => [t.name, t.group])).toEqual([
      ['Summarize page', null],
      ['Pinned one', null],
      ['Explain', null],
      ['Fix grammar', null],
      ['French', 'Translate to…'],
    ]);
  });
});

describe('quick functions as starters on the empty chat', () => {
  it('on the web: offers the tools for typed input; one picked is chosen for the message', async () => {
    await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
    expect(await starterNames()).toEqual(['💡Explain', '✍️Fix grammar', '🇫🇷Translate to French']);
    await userEvent.click(screen.getByRole('button', { name: /Explain/ }));
    expect(screen.getByRole('status', { name: 'Quick function: Explain' })).toBeInTheDocument();
    const box = screen.getByRole('textbox', { name: 'Message' });
    expect(box).toHaveFocus();
    expect(box).toHaveAttribute('placeholder', 'Add details (optional), then send');
    await userEvent.type(box, 'quantum tunnelling{Enter}');
    await screen.findByText('Done.');
    expect(sent()).toEqual([expect.objectContaining({ inputMessage: 'quantum tunnelling', quickFunctionId: 'qf-explain', aiModelId: 'basic' })]);
  });

  it('shows them to a visitor too (the built-ins)', async () => {
    await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: null });
    expect(await starterNames()).toEqual(['💡Explain', '✍️Fix grammar', '🇫🇷Translate to French']);
  });

  describe('in the side panel', () => {
    const tab = { id: 7, windowId: 1, index: 0, url: 'https://example.com/otters', title: 'Otters', active: true, status: 'complete' } as Browser.tabs.Tab;
    beforeEach(() => {
      fakeBrowser.reset();
      vi.spyOn(fakeBrowser.tabs, 'query').mockResolvedValue([tab]);
      const doc = new DOMParser().parseFromString('<html><head><title>Otters at dawn</title></head><body><article><h1>Otters at dawn</h1><p>Sea otters hold hands while they sleep, so that the current does not carry them apart. They keep a favourite stone.</p></article></body></html>', 'text/html');
      vi.spyOn(fakeBrowser.scripting, 'executeScript').mockImplementation((async () => [
        { frameId: 0, documentId: 'd1', result: { ...readDocument(doc), url: tab.url } },
      ]) as unknown as typeof fakeBrowser.scripting.executeScript);
    });
    afterEach(() => vi.restoreAllMocks());

    it('offers the page tools first; picking one attaches the tab\'s page, as "Read this page" does', async () => {
      await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, {
        apiBase: server.url,
        user: testUser,
        platform: { isExtension: true, scene: 'extension' },
      });
      expect(await starterNames()).toEqual(['📄Summarize page', '💡Explain', '✍️Fix grammar', '🇫🇷Translate to French']);
      expect(screen.getByRole('button', { name: /Summarize page/ })).toHaveAccessibleDescription('Uses the current page');
      await userEvent.click(screen.getByRole('button', { name: /Summarize page/ }));
      expect(screen.getByRole('status', { name: 'Quick function: Summarize page' })).toBeInTheDocument();
      await waitFor(() => expect(server.requests.some((r) => r.url.includes('AddChatMedia'))).toBe(true));
      await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
      await userEvent.click(screen.getByRole('button', { name: 'Send' }));
      await screen.findByText('Done.');
      expect(sent()).toEqual([expect.objectContaining({ inputMessage: '', quickFunctionId: 'qf-summarize', chatMediaIds: ['tab-media-1'] })]);
    });
  });
});

describe('a sent message with a tool and a selection', () => {
  it('shows the tool and the selected text (folded, with its page) in the bubble', async () => {
    await renderInApp(<ChatView sessionId="s1" onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
    const [first, second] = await screen.findAllByTestId('chat-turn');
    expect(within(first).getByTestId('qf-sent')).toHaveTextContent('Explain');
    const selection = within(first).getByRole('group', { name: 'Selected text' });
    expect(selection).toHaveTextContent(LONG);
    expect(within(selection).getByRole('link', { name: /From Otters at dawn/ })).toHaveAttribute('href', 'https://example.com/otters');
    const more = within(selection).getByRole('button', { name: 'Show more' });
    await userEvent.click(more);
    expect(more).toHaveAttribute('aria-expanded', 'true');
    expect(more).toHaveTextContent('Show less');

    expect(within(second).queryByTestId('qf-sent')).toBeNull();
    expect(within(second).getByText('and this?')).toBeInTheDocument();
    const odd = within(second).getByRole('group', { name: 'Selected text' });
    expect(within(odd).getByText('From Odd page').closest('a')).not.toHaveAttribute('href');
    // A short selection needs no folding.
    expect(within(odd).queryByRole('button', { name: 'Show more' })).toBeNull();
  });
});
