import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ChatView } from '../../../components/chat/chat-view.tsx';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { chatData, endChatStream, openChatStream, sendChatEvent } from '../../helpers/http-server.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

// The attachment kind "chat message": "Ask about this answer" under an answer attaches it to the next question.
let sent = 0;
const server = serveTheseTests(
  fakeApi({
    '/api/Chat/GetModelListAll': answer([testModel('basic', 1)]),
    '/api/Chat/AddMessage': (req, res) => {
      const body = JSON.parse(req.body) as { inputMessage: string };
      const id = `m${++sent}`;
      openChatStream(res);
      sendChatEvent(res, chatData({ ChatMessageId: id, ChatSessionId: 'new-session', InputMessage: body.inputMessage, OutputMessage: `Answer to ${body.inputMessage}`, FinishReason: 'stop' }));
      endChatStream(res);
    },
  }),
);

describe('an earlier answer attached to a new question', () => {
  it('puts the answer in the composer, sends its id as a chat-message attachment, and shows it on the sent question', async () => {
    await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('basic'));
    await userEvent.type(box, 'otters{Enter}');
    await screen.findByText('Answer to otters');

    await userEvent.click(await screen.findByRole('button', { name: 'Ask about this answer' }));
    const chip = await screen.findByTestId('quoted-answer-chip');
    expect(chip).toHaveTextContent('Answer to otters');
    expect(box).toHaveFocus();

    await userEvent.type(box, 'shorter{Enter}');
    await screen.findByText('Answer to shorter');
    const bodies = server.requests.filter((r) => r.url.includes('AddMessage')).map((r) => JSON.parse(r.body));
    expect(bodies[1]).toMatchObject({ inputMessage: 'shorter', attachments: [{ kind: 'chatMessage', chatMessageId: 'm1' }] });
    expect(bodies[1]).not.toHaveProperty('selection');
    expect(bodies[0]).not.toHaveProperty('attachments');
    // Sent: the chip leaves the composer, and the question's bubble shows the answer it carried.
    expect(screen.queryByTestId('quoted-answer-chip')).toBeNull();
    const turn = screen.getAllByTestId('chat-turn')[1]!;
    expect(within(turn).getByTestId('qf-selection-answer')).toHaveTextContent('From an earlier answer');
    expect(within(turn).getByTestId('qf-selection')).toHaveTextContent('Answer to otters');
  });

  it('removes the attached answer with its ×: the next question goes without it', async () => {
    await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('basic'));
    await userEvent.type(box, 'seals{Enter}');
    await screen.findByText('Answer to seals');
    await userEvent.click(screen.getByRole('button', { name: 'Ask about this answer' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Remove the attached answer' }));
    expect(screen.queryByTestId('quoted-answer-chip')).toBeNull();
    await userEvent.type(box, 'more{Enter}');
    await screen.findByText('Answer to more');
    const last = JSON.parse(server.requests.filter((r) => r.url.includes('AddMessage')).at(-1)!.body);
    expect(last).not.toHaveProperty('attachments');
  });
});
