import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatView } from '../../../components/chat/chat-view.tsx';
import { sendPreparedMessage } from '../../../shared/api/early-message.ts';
import { keepingModelList } from '../../../shared/api/model-list-cache.ts';
import { setApiBase } from '../../../shared/api/request.ts';
import { tokenPersisted } from '../../../shared/atoms/auth.ts';
import { pendingChatActionAtom } from '../../../shared/atoms/pending-action.ts';
import type { PendingActionEnvelope, PreparedMessage } from '../../../shared/contracts/selection-action.ts';
import { peekPersisted, writePersisted } from '../../../shared/storage/active.ts';
import { answer, answerChat, fakeApi, serveTheseTests, type Route } from '../../helpers/fake-api.ts';
import { chatData, createGate, openChatStream, sendChatEvent, sendEnvelope, startTestServer } from '../../helpers/http-server.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/**
 * A side panel opened by a selection tool sends the tool's message from its first script, before its
 * app has loaded (entrypoints/sidepanel-early.ts): the chat takes that request over and shows its
 * answer, or its failure, as it shows a message it sent itself, and sends nothing of its own.
 */
const listGate = createGate();
let addMessage: Route = answerChat('Explained.');

const server = serveTheseTests(
  fakeApi({
    '/api/Chat/GetModelListAll': async (req, res, url) => {
      await listGate.wait();
      answer([testModel('auto', 0)])(req, res, url);
    },
    '/api/Chat/AddMessage': (req, res, url) => addMessage(req, res, url),
    '/api/Chat/StopMessage': answer(),
  }),
);
beforeEach(() => {
  listGate.reset();
  addMessage = answerChat('Explained.');
});

const selection = { text: 'Sea otters eat urchins.', title: 'Otters', url: 'https://example.com/otters' };
const explain: PendingActionEnvelope = {
  id: 'action-1',
  windowId: 1,
  createdAt: Date.now(),
  action: { kind: 'tool', quickFunctionId: 'qf-explain', name: 'Explain', icon: '', selection },
};

/** The message as the background prepares it for `base` (shared/api/tool-message.ts prepareToolMessage). */
const prepared = (base: string): PreparedMessage => ({
  url: `${base}/api/Chat/AddMessage`,
  headers: { 'content-type': 'application/json-patch+json', accept: 'text/event-stream', authorization: 'Bearer test-token', reqtarget: 'web', driverid: 'driver-1' },
  body: { aiModelId: 'auto', inputMessage: '', chatMediaIds: [], webSearch: false, pluginIds: [], quickFunctionId: 'qf-explain', selection },
});

const addMessages = () => server.requests.filter((r) => r.url.startsWith('/api/Chat/AddMessage'));

/**
 * A side panel's chat at / opened for `explain`, with the model list of this server kept from before:
 * its message sent already to `base` (`early`), or not (the chat sends it, as it did before).
 */
async function openFor(base: string, early: boolean) {
  const sent = early ? sendPreparedMessage(prepared(base)) : undefined;
  const view = await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, {
    apiBase: server.url,
    user: testUser,
    before: async () => {
      setApiBase(base);
      await writePersisted(tokenPersisted, 'test-token');
      await keepingModelList(0, async () => [testModel('auto', 0)]);
    },
  });
  view.store.set(pendingChatActionAtom, { ...explain, sent });
  return view;
}

/** What the failed turn says, and whether the login stayed. */
async function failure(base: string, early: boolean) {
  const view = await openFor(base, early);
  const turn = await waitFor(
    () => {
      const found = screen.getByTestId('chat-turn');
      expect(found).toHaveAttribute('data-status', 'error');
      return found;
    },
    { timeout: 5_000 },
  );
  const seen = { text: turn.textContent, loggedIn: peekPersisted(tokenPersisted) !== null };
  view.unmount();
  return seen;
}

describe('a message the side panel sent before its chat existed', () => {
  it('streams into the chat as its own would, before the model list has come; the chat sends nothing', async () => {
    const release = listGate.hold();
    await openFor(server.url, true);
    expect(await screen.findByText('Explained.')).toBeInTheDocument();
    // The turn shows the tool and the selection it was sent with.
    expect(screen.getByTestId('chat-turn')).toHaveTextContent('Explain');
    expect(screen.getByTestId('chat-turn')).toHaveTextContent('Sea otters eat urchins.');
    expect(addMessages()).toHaveLength(1);
    expect(JSON.parse(addMessages()[0].body)).toMatchObject({ quickFunctionId: 'qf-explain', aiModelId: 'auto' });
    release();
  });

  it('an expired login: the same message, and the login goes, as when the chat sends', async () => {
    addMessage = (_req, res) => sendEnvelope(res, { Code: 10402, Msg: 'Your login has expired.' });
    const early = await failure(server.url, true);
    const before = await failure(server.url, false);
    expect(early).toEqual(before);
    expect(early.text).toContain('Your login has expired.');
    expect(early.loggedIn).toBe(false);
    expect(addMessages()).toHaveLength(2);
  });

  it('a server that cannot be reached: the same message as when the chat sends', async () => {
    const gone = await startTestServer();
    await gone.close();
    const early = await failure(gone.url, true);
    const before = await failure(gone.url, false);
    expect(early).toEqual(before);
    expect(early.text).toContain(`Cannot reach the server at ${gone.url}.`);
  });

  it('stops with the stop button as its own would', async () => {
    let closed = false;
    addMessage = (_req, res) => {
      res.on('close', () => (closed = true));
      openChatStream(res);
      sendChatEvent(res, chatData({ OutputMessage: 'Kelp grows back' }));
    };
    await openFor(server.url, true);
    await waitFor(() => expect(screen.getByTestId('chat-turn')).toHaveTextContent('Kelp grows back'));
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(server.requests.find((r) => r.url.includes('StopMessage'))?.body).toBe(JSON.stringify({ chatMessageId: 'm1' })));
    expect(await screen.findByText('Stopped')).toBeInTheDocument();
    await waitFor(() => expect(closed).toBe(true));
    expect(addMessages()).toHaveLength(1);
  });
});
