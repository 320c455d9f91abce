import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ServerResponse } from 'node:http';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatView } from '../../../components/chat/chat-view.tsx';
import type { ChatMessageItem } from '../../../shared/contracts/chat.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { chatData, createGate, endChatStream, openChatStream, sendChatEvent, sendEnvelope, type SeenRequest } from '../../helpers/http-server.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/**
 * Answer versions in the chat (docs/api.md#answer-versions): Ask again and an edited question make a
 * new version of a turn beside the earlier one, "‹ 2/2 ›" under the answer switches between them. The
 * fake API keeps the chat as the server does: a tree of exchanges, one branch shown.
 */

type Exchange = { id: string; parent: string | null; input: string; output: string; finishReason: string | null; media: string[]; selection: ChatMessageItem['selection'] };

let exchanges: Exchange[] = [];
let leaf: string | null = null;
let made = 0;
let stopped = new Set<string>();
const streamGate = createGate();

const versionsOf = (e: Exchange) => exchanges.filter((x) => x.parent === e.parent).map((x) => x.id);
const byId = (id: string | null) => exchanges.find((e) => e.id === id);
/** The branch shown, first turn first. */
function pathTo(id: string | null): Exchange[] {
  const path: Exchange[] = [];
  for (let e = byId(id); e; e = byId(e.parent)) path.unshift(e);
  return path;
}
const item = (e: Exchange): ChatMessageItem => ({
  chatMessageId: e.id,
  chatSessionId: 's1',
  inputMessage: e.input,
  outputMessage: e.output,
  aiModelId: 'basic',
  modelName: 'Basic',
  chatMediaIds: e.media,
  chatMedias: e.media.map((id) => ({ chatMediaId: id, mediaType: 'file' as const, title: `${id}.pdf`, url: '', icon: '' })),
  citations: [],
  toolCalls: [],
  quickFunction: null,
  selection: e.selection,
  finishReason: e.finishReason,
  createTime: '2026-01-01T00:00:00.000Z',
  finishTime: null,
  versionIds: versionsOf(e),
  versionIndex: versionsOf(e).indexOf(e.id) + 1,
  versionCount: versionsOf(e).length,
});

function add(parent: string | null, input: string, output: string, more: Partial<Exchange> = {}): Exchange {
  const e = { id: `m${++made}`, parent, input, output, finishReason: 'stop', media: [], selection: null, ...more };
  exchanges.push(e);
  leaf = e.id;
  return e;
}

/** AddMessage as the server answers it: the new exchange follows the leaf, or is a version of `versionOf`; its answer streams. */
async function addMessage(req: SeenRequest, res: ServerResponse) {
  const body = JSON.parse(req.body) as { inputMessage: string; versionOf?: string; chatMediaIds?: string[]; selection?: Exchange['selection'] };
  const parent = body.versionOf ? byId(body.versionOf)!.parent : leaf;
  const e = add(parent, body.inputMessage, '', { finishReason: null, media: body.chatMediaIds ?? [], selection: body.selection ?? null });
  const answerText = `Answer ${made} to ${body.inputMessage}`;
  const base = { ChatMessageId: e.id, ChatSessionId: 's1', InputMessage: body.inputMessage };
  openChatStream(res);
  sendChatEvent(res, chatData({ ...base, OutputMessage: answerText.slice(0, 7) }));
  e.output = answerText.slice(0, 7);
  await streamGate.wait();
  e.finishReason = stopped.has(e.id) ? 'user-stopped' : 'stop';
  if (e.finishReason === 'stop') {
    sendChatEvent(res, chatData({ ...base, OutputMessage: answerText.slice(7) }));
    e.output = answerText;
  }
  sendChatEvent(res, chatData({ ...base, FinishReason: e.finishReason }));
  endChatStream(res);
}

/** SwitchVersion: the branch through the exchange (its newest below, unless it is shown already), from it down. */
function switchVersion(req: SeenRequest, res: ServerResponse) {
  const { chatMessageId } = JSON.parse(req.body) as { chatMessageId: string };
  if (!pathTo(leaf).some((e) => e.id === chatMessageId)) {
    let end = byId(chatMessageId)!;
    for (let child = exchanges.findLast((x) => x.parent === end.id); child; child = exchanges.findLast((x) => x.parent === end.id)) end = child;
    leaf = end.id;
  }
  const path = pathTo(leaf);
  sendEnvelope(res, { Code: 10000, Data: { list: path.slice(path.findIndex((e) => e.id === chatMessageId)).map(item), total: path.length } });
}

const server = serveTheseTests(
  fakeApi({
    '/api/Chat/GetModelListAll': answer([testModel('basic', 1)]),
    '/api/Chat/GetChatSessionListBySelf': answer({ list: [], total: 0 }),
    '/api/Chat/GetChatMessageListBySelfSessionId': (_req, res) => {
      const path = pathTo(leaf);
      sendEnvelope(res, { Code: 10000, Data: { list: path.map(item).reverse(), total: path.length } });
    },
    '/api/Chat/AddMessage': addMessage,
    '/api/Chat/SwitchVersion': switchVersion,
    '/api/Chat/DeleteMessage': (req, res) => {
      // As the server deletes in a tree: what followed it follows its parent; the leaf goes to the newest other version.
      const gone = byId((JSON.parse(req.body) as { chatMessageId: string }).chatMessageId)!;
      exchanges = exchanges.filter((e) => e !== gone);
      for (const e of exchanges) if (e.parent === gone.id) e.parent = gone.parent;
      if (leaf === gone.id) leaf = exchanges.findLast((e) => e.parent === gone.parent)?.id ?? gone.parent;
      sendEnvelope(res, { Code: 10000 });
    },
    '/api/Chat/StopMessage': (req, res) => {
      stopped.add((JSON.parse(req.body) as { chatMessageId: string }).chatMessageId);
      sendEnvelope(res, { Code: 10000 });
    },
  }),
);

beforeEach(() => {
  exchanges = [];
  leaf = null;
  made = 0;
  stopped = new Set();
  streamGate.reset();
});

const open = async () => {
  await renderInApp(<ChatView sessionId="s1" onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
  await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('basic'));
};
const turns = () => screen.getAllByTestId('chat-turn');
const versions = () => screen.getByTestId('answer-versions');
const sent = (path: string) => server.requests.filter((r) => r.url.startsWith(path)).map((r) => JSON.parse(r.body) as Record<string, unknown>);

describe('answer versions: Ask again', () => {
  it('keeps the earlier answer as version 1 of 2, and the arrows switch between them (by keyboard too)', async () => {
    const first = add(null, 'Name a colour', 'Blue');
    await open();
    await screen.findByText('Blue');
    expect(screen.queryByTestId('answer-versions')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Ask again' }));
    await screen.findByText('Answer 2 to Name a colour');
    expect(sent('/api/Chat/AddMessage')).toEqual([expect.objectContaining({ chatSessionId: 's1', inputMessage: 'Name a colour', versionOf: first.id })]);
    expect(server.requests.some((r) => r.url.includes('DeleteMessage'))).toBe(false);
    expect(versions()).toHaveAccessibleName('Version 2 of 2');
    expect(versions()).toHaveTextContent('2/2');
    expect(within(versions()).getByRole('button', { name: 'Next version' })).toBeDisabled();

    within(versions()).getByRole('button', { name: 'Previous version' }).focus();
    await userEvent.keyboard('{Enter}');
    await screen.findByText('Blue');
    expect(sent('/api/Chat/SwitchVersion')).toEqual([{ chatSessionId: 's1', chatMessageId: first.id }]);
    expect(versions()).toHaveAccessibleName('Version 1 of 2');
    expect(screen.queryByText('Answer 2 to Name a colour')).toBeNull();
    expect(turns()).toHaveLength(1);

    await userEvent.click(within(versions()).getByRole('button', { name: 'Next version' }));
    await screen.findByText('Answer 2 to Name a colour');
    expect(versions()).toHaveTextContent('2/2');
  });

  it('keeps both versions when the regeneration is stopped', async () => {
    const first = add(null, 'Write a poem', 'Roses are red');
    await open();
    await screen.findByText('Roses are red');
    const release = streamGate.hold();
    await userEvent.click(screen.getByRole('button', { name: 'Ask again' }));
    await screen.findByText(/Answer/);
    // While the new version streams, the earlier one is one arrow away, not reachable until it ends.
    expect(versions()).toHaveTextContent('2/2');
    expect(within(versions()).getByRole('button', { name: 'Previous version' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(stopped.size).toBe(1));
    release();
    await screen.findByText('Stopped');
    expect(versions()).toHaveTextContent('2/2');
    await userEvent.click(within(versions()).getByRole('button', { name: 'Previous version' }));
    await screen.findByText('Roses are red');
    expect(versions()).toHaveAccessibleName('Version 1 of 2');
    expect(exchanges.map((e) => [e.id, e.finishReason])).toEqual([
      [first.id, 'stop'],
      ['m2', 'user-stopped'],
    ]);
  });
});

describe('answer versions: editing a sent question', () => {
  it('sends the edited question as a new version with what the turn carried; the later turns come back with the old version', async () => {
    const first = add(null, 'Summarize this', 'A summary', { media: ['doc1'], selection: { text: 'Some page text', title: 'Page', url: 'https://example.com/' } });
    add(first.id, 'Shorter?', 'Short summary');
    await open();
    await screen.findByText('Short summary');
    expect(turns()).toHaveLength(2);

    await userEvent.click(within(turns()[0]!).getByRole('button', { name: 'Edit message' }));
    // The edit box is a chunk of its own, fetched once the question shows (message-item.tsx).
    const box = await screen.findByRole('textbox', { name: 'Edit your message' });
    expect(box).toHaveValue('Summarize this');
    expect(box).toHaveFocus();
    await userEvent.type(box, ' in French{Enter}');
    await screen.findByText('Answer 3 to Summarize this in French');
    expect(sent('/api/Chat/AddMessage')).toEqual([
      expect.objectContaining({
        chatSessionId: 's1',
        inputMessage: 'Summarize this in French',
        versionOf: first.id,
        chatMediaIds: ['doc1'],
        selection: { text: 'Some page text', title: 'Page', url: 'https://example.com/' },
      }),
    ]);
    // The answers after the edited question belong to the old version's branch.
    expect(turns()).toHaveLength(1);
    expect(screen.queryByText('Short summary')).toBeNull();
    expect(versions()).toHaveTextContent('2/2');

    await userEvent.click(within(versions()).getByRole('button', { name: 'Previous version' }));
    await screen.findByText('Short summary');
    expect(turns()).toHaveLength(2);
    expect(within(turns()[0]!).getByTestId('answer-versions')).toHaveTextContent('1/2');
  });

  it('Esc (or Cancel) leaves the question as it was and sends nothing', async () => {
    add(null, 'Hello there', 'Hi');
    await open();
    await screen.findByText('Hi');
    await userEvent.click(screen.getByRole('button', { name: 'Edit message' }));
    await userEvent.type(await screen.findByRole('textbox', { name: 'Edit your message' }), ' changed{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Edit your message' })).toBeNull();
    expect(screen.getByText('Hello there')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Edit message' }));
    await userEvent.clear(screen.getByRole('textbox', { name: 'Edit your message' }));
    // Nothing to send: Send waits for text, Enter does nothing.
    const editor = screen.getByTestId('question-editor');
    expect(within(editor).getByRole('button', { name: 'Send' })).toBeDisabled();
    await userEvent.keyboard('{Enter}');
    await userEvent.click(within(editor).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('Hello there')).toBeInTheDocument();
    expect(sent('/api/Chat/AddMessage')).toEqual([]);
  });
});

describe('answer versions: opening a chat at a message, deleting a version', () => {
  it('opens a search hit on another branch by showing that branch', async () => {
    const first = add(null, 'Name a colour', 'Blue');
    add(null, 'Name a colour', 'Green');
    await renderInApp(<ChatView sessionId="s1" onSessionCreated={vi.fn()} focusMessageId={first.id} />, { apiBase: server.url, user: testUser });
    await screen.findByText('Blue');
    expect(sent('/api/Chat/SwitchVersion')).toEqual([{ chatSessionId: 's1', chatMessageId: first.id }]);
    expect(screen.queryByText('Green')).toBeNull();
    expect(versions()).toHaveAccessibleName('Version 1 of 2');
  });

  it('deleting the version shown shows the one the server keeps in its place', async () => {
    add(null, 'Name a colour', 'Blue');
    add(null, 'Name a colour', 'Green');
    await open();
    await screen.findByText('Green');
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await screen.findByText('Blue');
    expect(turns()).toHaveLength(1);
    expect(screen.queryByTestId('answer-versions')).toBeNull();
  });
});
