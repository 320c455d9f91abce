import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ServerResponse } from 'node:http';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatSidebar } from '../../../components/chat-history/chat-sidebar.tsx';
import { ChatView } from '../../../components/chat/chat-view.tsx';
import type { ChatMessageItem, ChatSessionItem } from '../../../shared/contracts/chat.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { chatData, createGate, endChatStream, openChatStream, sendChatEvent } from '../../helpers/http-server.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/**
 * The client's side of ResumeMessage: a stream that drops mid-answer is followed again from the text
 * shown (however often it drops), and a chat opened while its answer is being written continues it.
 * The fake server cuts its streams where a real network would: inside a surrogate pair too.
 */

const FULL = 'Once 😀 upon 你好 a time there was a resumed answer 🎉 that ended well';
/** Where AddMessage's connection drops: inside the pair of 😀. */
const FIRST_CUT = FULL.indexOf('😀') + 1;
/** How much the first ResumeMessage sends before its connection drops too: inside 你好. */
const SECOND_CUT = FULL.indexOf('你') + 1;

let resumeCalls: { chatMessageId: string; offset: number }[] = [];
let dropFirstResume = true;
const resumeGate = createGate();

const STORED: ChatMessageItem = {
  chatMessageId: 'm-live',
  chatSessionId: 's-live',
  inputMessage: 'Tell me a story',
  outputMessage: FULL.slice(0, 12),
  aiModelId: 'basic',
  modelName: 'Basic',
  chatMediaIds: [],
  chatMedias: [],
  citations: [],
  toolCalls: [],
  finishReason: null,
  createTime: '2026-01-01T00:00:00.000Z',
  finishTime: null,
};

const session = (id: string, answering: boolean): ChatSessionItem => ({
  chatSessionId: id,
  sessionTitle: `Chat ${id}`,
  sessionDescribe: '',
  createTime: '2026-11-20T10:00:00.000Z',
  lastActiveTime: '2026-11-20T10:00:00.000Z',
  pinned: false,
  answering,
});

/** ResumeMessage as the server answers it: the text from `offset`, then the rest and the end. */
async function resumeRoute(res: ServerResponse, url: URL) {
  const chatMessageId = url.searchParams.get('chatMessageId') ?? '';
  const offset = Number(url.searchParams.get('offset'));
  resumeCalls.push({ chatMessageId, offset });
  const base = { ChatMessageId: chatMessageId, ChatSessionId: 's-live', InputMessage: 'Tell me a story', ModelName: 'Basic' };
  openChatStream(res);
  if (dropFirstResume && resumeCalls.length === 1) {
    // The network goes away mid-answer, right after this event has been handed to the socket (it arrives before the close).
    const event = { Code: 10000, Msg: '', Data: chatData({ ...base, OutputMessage: FULL.slice(offset, SECOND_CUT) }) };
    res.write(`data: ${JSON.stringify(event)}\n\n`, () => res.destroy());
    return;
  }
  sendChatEvent(res, chatData({ ...base, OutputMessage: FULL.slice(offset, offset + 5) }));
  await resumeGate.wait();
  sendChatEvent(res, chatData({ ...base, OutputMessage: FULL.slice(offset + 5) }));
  sendChatEvent(res, chatData({ ...base, FinishReason: 'stop' }));
  endChatStream(res);
}

const server = serveTheseTests(
  fakeApi({
    '/api/Chat/GetModelListAll': answer([testModel('basic', 1)]),
    '/api/Chat/StopMessage': answer(),
    '/api/Chat/GetChatMessageListBySelfSessionId': answer({ list: [STORED], total: 1 }),
    '/api/Chat/GetChatSessionListBySelf': answer({ list: [session('s-live', true), session('s-done', false)], total: 2 }),
    '/api/Chat/AddMessage': (req, res) => {
      const body = JSON.parse(req.body) as { inputMessage: string };
      const base = { ChatMessageId: 'm-new', ChatSessionId: 's-live', InputMessage: body.inputMessage, ModelName: 'Basic' };
      openChatStream(res);
      sendChatEvent(res, chatData({ ...base, OutputMessage: FULL.slice(0, 3) }));
      sendChatEvent(res, chatData({ ...base, OutputMessage: FULL.slice(3, FIRST_CUT) }));
      // Closed before DONE, in the middle of an emoji.
      res.end();
    },
    '/api/Chat/ResumeMessage': (_req, res, url) => resumeRoute(res, url),
  }),
);

beforeEach(() => {
  resumeCalls = [];
  dropFirstResume = true;
  resumeGate.reset();
});

const answerText = (container: HTMLElement) => (container.querySelector('[data-testid="chat-turn"] .md-view')?.textContent ?? '').trim();

describe('following an answer with ResumeMessage', () => {
  it('reconnects from the text it has when the stream drops, again after a second drop, and shows each character once', async () => {
    const { container } = await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('basic'));
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Tell me a story{Enter}');
    await waitFor(() => expect(answerText(container)).toBe(FULL), { timeout: 10_000 });
    // The offsets are UTF-16 code units of what was shown: the first inside 😀, the second inside 你好.
    expect(resumeCalls).toEqual([
      { chatMessageId: 'm-new', offset: FIRST_CUT },
      { chatMessageId: 'm-new', offset: SECOND_CUT },
    ]);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText('Stopped')).toBeNull();
    expect(await screen.findByRole('button', { name: 'Copy' })).toBeEnabled();
  });

  it('continues live an answer still being written when the chat is opened, and its stop button works', async () => {
    dropFirstResume = false;
    const release = resumeGate.hold();
    const { container } = await renderInApp(<ChatView sessionId="s-live" onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(answerText(container)).toBe(FULL.slice(0, 17)));
    expect(resumeCalls).toEqual([{ chatMessageId: 'm-live', offset: 12 }]);
    // While it streams the composer offers Stop, as for an answer asked here.
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    release();
    await waitFor(() => expect(answerText(container)).toBe(FULL));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('stops a followed answer with StopMessage', async () => {
    dropFirstResume = false;
    resumeGate.hold();
    await renderInApp(<ChatView sessionId="s-live" onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
    await userEvent.click(await screen.findByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(server.requests.some((r) => r.url.includes('StopMessage'))).toBe(true));
    expect(JSON.parse(server.requests.find((r) => r.url.includes('StopMessage'))!.body)).toEqual({ chatMessageId: 'm-live' });
    await screen.findByText('Stopped');
  });

  it('marks in the history the chats whose answer is being written', async () => {
    await renderInApp(<ChatSidebar onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    await screen.findByText('Chat s-done');
    const marks = screen.getAllByTestId('session-answering');
    expect(marks).toHaveLength(1);
    expect(marks[0]).toHaveTextContent('Answering…');
    expect(marks[0].closest('[role="listitem"]')).toHaveTextContent('Chat s-live');
  });
});
