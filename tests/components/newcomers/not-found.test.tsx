import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { NotFoundPage } from '../../../components/newcomers/not-found-page.tsx';
import { serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

const server = serveTheseTests();

describe('not found', () => {
  it('says the page does not exist and leads back to the chat and to help', async () => {
    const user = userEvent.setup();
    const onHome = vi.fn();
    const onHelp = vi.fn();
    await renderInApp(<NotFoundPage onHome={onHome} onHelp={onHelp} />, { apiBase: server.url });
    expect(screen.getByText('Page not found')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to chat' }));
    await user.click(screen.getByRole('button', { name: 'Help centre' }));
    expect(onHome).toHaveBeenCalledOnce();
    expect(onHelp).toHaveBeenCalledOnce();
  });

  it('says a chat was not found, for an address that names no chat of this account', async () => {
    await renderInApp(<NotFoundPage kind="chat" onHome={vi.fn()} />, { apiBase: server.url });
    expect(screen.getByTestId('chat-not-found')).toHaveTextContent('Chat not found');
    expect(screen.getByText(/deleted, or it belongs to another account/)).toBeInTheDocument();
  });
});
