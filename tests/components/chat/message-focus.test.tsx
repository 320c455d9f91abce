import { screen, within, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatAddonsContext } from '../../../components/chat/chat-addons.ts';
import { MessageList } from '../../../components/chat/message-list.tsx';
import type { ChatTurn } from '../../../components/chat/use-chat.ts';
import { serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

/**
 * A link to one message of a chat (?message=<id>, a saved answer's source) brings that message into
 * view and marks it; finished answers carry the actions other features add (the favourites' star).
 */
const server = serveTheseTests();

const turns: ChatTurn[] = Array.from({ length: 60 }, (_, i) => ({
  key: `m${i}`,
  chatMessageId: `m${i}`,
  input: `Question ${i}`,
  output: `Answer ${i}`,
  status: 'done',
}));

let scrolled: Element[];
beforeEach(() => {
  scrolled = [];
  Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
    scrolled.push(this);
  });
});
afterEach(() => {
  delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
});

const list = (focusMessageId?: string) => (
  <MessageList turns={turns} streaming={false} hasEarlier={false} loading={false} loadError={null} onLoadEarlier={vi.fn()} onRetry={vi.fn()} onDelete={vi.fn()} onEdit={vi.fn()} onSwitchVersion={vi.fn()} empty={null} focusMessageId={focusMessageId} />
);

describe('MessageList and a linked message', () => {
  it('scrolls to the linked message, even one above the turns mounted at first, and marks it', async () => {
    await renderInApp(list('m5'), { apiBase: server.url });
    await waitFor(() => expect(scrolled).toHaveLength(1));
    expect(scrolled[0]).toHaveAttribute('data-message-id', 'm5');
    expect(scrolled[0]).toHaveAttribute('data-focused');
    expect(screen.getByText('Question 5')).toBeInTheDocument();
  });

  it('scrolls nowhere for a message not in the chat', async () => {
    await renderInApp(list('not-here'), { apiBase: server.url });
    expect(await screen.findByText('Question 59')).toBeInTheDocument();
    expect(scrolled).toEqual([]);
  });

  it('shows the addon actions of each finished answer with its message id', async () => {
    await renderInApp(
      <ChatAddonsContext.Provider value={{ answerActions: ({ chatMessageId }) => <button type="button">star {chatMessageId}</button> }}>{list()}</ChatAddonsContext.Provider>,
      { apiBase: server.url },
    );
    const star = await screen.findByRole('button', { name: 'star m59' });
    // After the chat's own actions: arriving later (a chunk), they move none of them.
    const row = star.closest('.chat-actions') as HTMLElement;
    expect(within(row).getAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent)).toEqual(['Copy', 'Ask again', 'Delete', 'star m59']);
  });
});
