import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatView } from '../../../components/chat/chat-view.tsx';
import { answer, answerChat, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';
import { TREE } from './fake-quick-functions.ts';

let smartLocked = false;
const server = serveTheseTests(
  fakeApi({
    '/api/Chat/GetModelListAll': (req, res, url) => answer([testModel('basic', 1), testModel('smart', 2, { locked: smartLocked })])(req, res, url),
    '/api/QuickFunction/GetQuickFunctionListAll2': answer(TREE),
    '/api/Chat/AddMessage': answerChat('Done.', { ChatSessionId: 's-new' }),
  }),
);

const sent = () => server.requests.filter((r) => r.url.includes('AddMessage')).map((r) => JSON.parse(r.body) as Record<string, unknown>);
const box = () => screen.getByRole('textbox', { name: 'Message' });
const optionNames = () => within(screen.getByRole('listbox', { name: 'Quick functions' })).getAllByRole('option').map((o) => o.textContent);

async function renderChat() {
  const result = await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
  await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('basic'));
  // The tools are known (the starters show them).
  await screen.findAllByTestId('qf-starter');
  return result;
}

describe('the composer\'s "/" menu', () => {
  beforeEach(() => {
    smartLocked = false;
  });

  it('opens on "/" with the tools that take typed input, moves with the arrow keys, picks with Enter and sends the tool', async () => {
    await renderChat();
    await userEvent.type(box(), '/');
    // On the web there is no page to read: page-only and selection-only tools are not offered. Groups open up.
    expect(await screen.findByRole('listbox', { name: 'Quick functions' })).toBeInTheDocument();
    expect(optionNames()).toEqual(['💡ExplainIn plain words', '✍️Fix grammar', '🇫🇷Translate to… › FrenchTranslate to French']);
    const selected = () => screen.getByRole('option', { selected: true });
    expect(selected()).toHaveTextContent('Explain');
    await userEvent.keyboard('{ArrowDown}');
    expect(selected()).toHaveTextContent('Fix grammar');
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    // Wraps around.
    expect(selected()).toHaveTextContent('Explain');
    await userEvent.keyboard('{ArrowUp}');
    expect(selected()).toHaveTextContent('French');
    await userEvent.keyboard('{ArrowUp}{Enter}');

    // Chosen: a chip in the composer, the "/" text gone, nothing sent yet.
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByRole('status', { name: 'Quick function: Fix grammar' })).toBeInTheDocument();
    expect(box()).toHaveValue('');
    expect(sent()).toEqual([]);

    // With a tool the message may go without text; it goes to the tool's preferred model (the plan allows it).
    await userEvent.keyboard('{Enter}');
    await screen.findByText('Done.');
    expect(sent()).toEqual([expect.objectContaining({ inputMessage: '', quickFunctionId: 'qf-grammar', aiModelId: 'smart' })]);
    // The bubble says which tool was used; the chip is gone from the composer.
    expect(screen.getByTestId('qf-sent')).toHaveTextContent('Fix grammar');
    expect(screen.queryByTestId('qf-chosen')).toBeNull();
  });

  it('filters by what follows the "/", picks with the mouse, and the chip can be removed', async () => {
    await renderChat();
    await userEvent.type(box(), '/fre');
    expect(optionNames()).toEqual(['🇫🇷Translate to… › FrenchTranslate to French']);
    await userEvent.type(box(), 'x');
    expect(await screen.findByText('No quick function matches “frex”')).toBeInTheDocument();
    await userEvent.type(box(), '{Backspace}');
    await userEvent.click(screen.getByRole('option', { name: /French/ }));
    expect(screen.getByRole('status', { name: 'Quick function: Translate to French' })).toBeInTheDocument();
    // The text box kept the focus.
    expect(box()).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Remove Translate to French' }));
    expect(screen.queryByTestId('qf-chosen')).toBeNull();
    // Without a tool, an empty message cannot be sent.
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it("sends a tool of a group under the group's verb, as the server names it", async () => {
    await renderChat();
    await userEvent.type(box(), '/fre');
    await userEvent.keyboard('{Enter}');
    await userEvent.keyboard('{Enter}');
    await screen.findByText('Done.');
    expect(screen.getByTestId('qf-sent')).toHaveTextContent('Translate to French');
  });

  it('closes on Escape and then sends the text as it is', async () => {
    await renderChat();
    await userEvent.type(box(), '/explain');
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    await userEvent.keyboard('{Enter}');
    await screen.findByText('Done.');
    expect(sent()).toEqual([expect.objectContaining({ inputMessage: '/explain' })]);
    expect(sent()[0]).not.toHaveProperty('quickFunctionId');
  });

  it('uses the chosen model when the tool prefers one above the plan', async () => {
    smartLocked = true;
    await renderChat();
    await userEvent.type(box(), '/grammar{Enter}fix this{Enter}');
    await screen.findByText('Done.');
    expect(sent()).toEqual([expect.objectContaining({ inputMessage: 'fix this', quickFunctionId: 'qf-grammar', aiModelId: 'basic' })]);
    expect(screen.getByTestId('qf-sent')).toHaveTextContent('Fix grammar');
    expect(screen.getByText('fix this')).toBeInTheDocument();
  });
});
