import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatView } from '../../../components/chat/chat-view.tsx';
import { Composer } from '../../../components/chat/composer.tsx';
import { loginDialogAtom } from '../../../shared/atoms/login-dialog.ts';
import { resolveModel } from '../../../shared/utils/default-model.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { chatData, createGate, endChatStream, openChatStream, sendChatEvent } from '../../helpers/http-server.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

const MODELS = [testModel('auto', 0), testModel('basic', 1), testModel('fast', 1), testModel('pro', 2, { locked: true }), testModel('super', 3, { locked: true })];

const CUT_OFF = 'The answer was cut off: the connection to the model broke before it finished. Retry to get the whole answer.';
/** How many answers to "cut me off" the fake server still breaks off. */
let cutOffs = 0;

/** While held, the answer waits after its first event until the test releases it. */
const answerGate = createGate();

const server = serveTheseTests(
  fakeApi({
    '/api/Chat/GetModelListAll': answer(MODELS),
    '/api/Chat/StopMessage': answer(),
    '/api/Chat/DeleteMessage': answer(),
    '/api/Chat/AddMessage': async (req, res) => {
      const body = JSON.parse(req.body) as { inputMessage: string };
      const base = { ChatSessionId: 'new-session', InputMessage: body.inputMessage, ModelName: 'Fake GPT' };
      openChatStream(res);
      if (body.inputMessage === 'cut me off' && cutOffs-- > 0) {
        // The server's last event when the model broke off mid-answer (server/core/failures.ts).
        sendChatEvent(res, chatData({ ...base, OutputMessage: 'Half an' }));
        res.write(`data: ${JSON.stringify({ Code: 10503, Msg: CUT_OFF, Data: chatData({ ...base, FinishReason: 'error' }) })}\n\n`);
        return endChatStream(res);
      }
      sendChatEvent(res, chatData({ ...base, OutputMessage: 'Here is **bold** <tandem>secret</tandem>' }));
      await answerGate.wait();
      sendChatEvent(res, chatData({ ...base, OutputMessage: ' and `code`.', FinishReason: 'stop' }));
      endChatStream(res);
    },
  }),
);
beforeEach(() => answerGate.reset());

describe('resolveModel', () => {
  it('keeps a usable pick, else applies the default rule to the models the plan allows', () => {
    expect(resolveModel(MODELS, 'fast')?.aiModelId).toBe('fast');
    expect(resolveModel(MODELS, 'pro')?.aiModelId).toBe('basic');
    expect(resolveModel(MODELS, null)?.aiModelId).toBe('basic');
    expect(resolveModel([testModel('auto', 0), testModel('x', 2, { locked: true })], null)?.aiModelId).toBe('auto');
  });
});

describe('Composer', () => {
  const setup = () => {
    const onSend = vi.fn();
    void renderInApp(
      <Composer streaming={false} onSend={onSend} onStop={vi.fn()} webSearch={false} onWebSearchChange={vi.fn()} webSearchUnavailable="No search here" modelPicker={null} />,
      { apiBase: server.url },
    );
    return onSend;
  };

  it('sends on Enter, not on Shift+Enter nor on the Enter that ends an IME composition', async () => {
    const onSend = setup();
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await userEvent.type(box, '你好');
    fireEvent.keyDown(box, { key: 'Enter', isComposing: true });
    fireEvent.keyDown(box, { key: 'Enter', keyCode: 229 });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('你好');
    expect(box).toHaveValue('');
  });

  it('disables web search with the reason', async () => {
    setup();
    const toggle = await screen.findByRole('button', { name: 'No search here' });
    expect(toggle).toBeDisabled();
  });
});

describe('ChatView', () => {
  it('lists models by level with the locked ones explained', async () => {
    await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
    const picker = await screen.findByTestId('model-picker');
    await waitFor(() => expect(picker).toHaveTextContent('basic'));
    await userEvent.click(picker);
    const menu = await screen.findByRole('menu', { hidden: true });
    const pro = await within(menu).findByRole('menuitem', { name: /pro/, hidden: true });
    // The group headers (each model's own line names its plan too).
    const labels = [...menu.querySelectorAll('.mantine-Menu-label')].map((e) => e.textContent);
    expect(labels).toEqual(['Standard', 'Advanced', 'Super']);
    expect(pro).toBeDisabled();
    expect(pro).toHaveTextContent('Needs the Advanced plan');
  });

  it('opens the login dialog when a visitor sends', async () => {
    const { store } = await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: null });
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await userEvent.type(box, 'hello{Enter}');
    expect(store.get(loginDialogAtom)).toEqual({ open: true, notice: 'chat.notLoginTip' });
    expect(server.requests.some((r) => r.url.includes('AddMessage'))).toBe(false);
  });

  it('streams an answer as markdown without the product tags, names the model and the new session, and stops', async () => {
    const release = answerGate.hold();
    const onSessionCreated = vi.fn();
    const { container } = await renderInApp(<ChatView sessionId={undefined} onSessionCreated={onSessionCreated} />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('basic'));
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Hi there{Enter}');

    await waitFor(() => expect(container.querySelector('.md-view strong')?.textContent).toBe('bold'));
    expect(container.querySelector('.md-view')).not.toHaveTextContent('secret');
    expect(onSessionCreated).toHaveBeenCalledWith('new-session');
    const body = JSON.parse(server.requests.find((r) => r.url.includes('AddMessage'))!.body);
    expect(body).toMatchObject({ aiModelId: 'basic', inputMessage: 'Hi there', webSearch: false });

    // While streaming the stop button calls StopMessage with the message id.
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(server.requests.some((r) => r.url.includes('StopMessage'))).toBe(true));
    expect(JSON.parse(server.requests.find((r) => r.url.includes('StopMessage'))!.body)).toEqual({ chatMessageId: 'm1' });
    release();
    await screen.findByText('Stopped');
    expect(screen.getByTestId('answer-model')).toHaveTextContent('Fake GPT');
  });

  it('shows a finished answer with its copy, retry and delete actions', async () => {
    const { container } = await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('basic'));
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Hi{Enter}');
    await waitFor(() => expect(container.querySelector('.md-view code')?.textContent).toBe('code'));
    expect(await screen.findByRole('button', { name: 'Copy' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Ask again' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeEnabled();
  });

  it('says an answer was cut off, keeps what came, and offers Retry in place', async () => {
    cutOffs = 1;
    await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('basic'));
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'cut me off{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(CUT_OFF);
    expect(screen.getByTestId('chat-turn')).toHaveTextContent('Half an');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    await waitFor(() => expect(screen.getByTestId('chat-turn')).toHaveTextContent('and code.'));
    expect(server.requests.filter((r) => r.url.startsWith('/api/Chat/AddMessage'))).toHaveLength(2);
  });
});
