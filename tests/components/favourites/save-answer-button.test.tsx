import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { chatFavouritesAddons } from '../../../components/layout/chat-favourites.tsx';
import { SaveAnswerButton } from '../../../components/favourites/save-answer-button.tsx';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/** message id → favourite id, as the fake server keeps them. */
let saved: Map<string, string>;

const server = serveTheseTests(
  fakeApi({
    '/api/Save/IsSaved': (req, res) => {
      const { chatMessageIds } = JSON.parse(req.body) as { chatMessageIds: string[] };
      const list = chatMessageIds.filter((id) => saved.has(id)).map((id) => ({ chatMessageId: id, favouriteId: saved.get(id)! }));
      return sendEnvelope(res, { Code: 10000, Data: { list } });
    },
    '/api/Save/Add': (req, res) => {
      const { chatMessageId } = JSON.parse(req.body) as { chatMessageId: string };
      saved.set(chatMessageId, `fav-${chatMessageId}`);
      return sendEnvelope(res, {
        Code: 10000,
        Data: {
          favouriteId: `fav-${chatMessageId}`,
          question: 'q',
          answer: 'a',
          aiModelId: null,
          modelName: null,
          answerTime: '2026-11-20T10:00:00.000Z',
          createTime: '2026-11-20T10:00:00.000Z',
          updateTime: '2026-11-20T10:00:00.000Z',
          chatSessionId: 's1',
          chatMessageId,
          sourceExists: true,
          edited: false,
        },
      });
    },
    '/api/Save/Delete': (req, res) => {
      const { favouriteId } = JSON.parse(req.body) as { favouriteId: string };
      for (const [message, favourite] of saved) if (favourite === favouriteId) saved.delete(message);
      return sendEnvelope(res, { Code: 10000, Data: null });
    },
  }),
);
const calls = (path: string) => server.requests.filter((r) => r.url === path).map((r) => JSON.parse(r.body));

beforeEach(() => {
  saved = new Map([['m2', 'fav-m2']]);
});

describe('SaveAnswerButton', () => {
  it('asks once for all the answers on screen whether they are saved, and shows each state', async () => {
    await renderInApp(
      <>
        <SaveAnswerButton chatMessageId="m1" />
        <SaveAnswerButton chatMessageId="m2" />
        <SaveAnswerButton chatMessageId="m3" />
      </>,
      { apiBase: server.url, user: testUser },
    );
    await waitFor(() => expect(screen.getByRole('button', { name: 'Remove from favourites' })).toBeEnabled());
    expect(screen.getAllByRole('button', { name: 'Save to favourites' })).toHaveLength(2);
    expect(calls('/api/Save/IsSaved')).toEqual([{ chatMessageIds: ['m1', 'm2', 'm3'] }]);
  });

  it('saves with a toast, and removes again', async () => {
    await renderInApp(<SaveAnswerButton chatMessageId="m1" />, { apiBase: server.url, user: testUser });
    const star = await screen.findByRole('button', { name: 'Save to favourites' });
    await waitFor(() => expect(star).toBeEnabled());
    expect(star).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(star);
    expect(await screen.findByText('Saved to favourites')).toBeInTheDocument();
    const pressed = screen.getByRole('button', { name: 'Remove from favourites' });
    expect(pressed).toHaveAttribute('aria-pressed', 'true');
    expect(calls('/api/Save/Add')).toEqual([{ chatMessageId: 'm1' }]);

    await userEvent.click(pressed);
    expect(await screen.findByText('Removed from favourites')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save to favourites' })).toHaveAttribute('aria-pressed', 'false');
    expect(calls('/api/Save/Delete')).toEqual([{ favouriteId: 'fav-m1' }]);
  });

  it('the "Saved" toast leads to the saved answers, and is closed when taken', async () => {
    window.history.replaceState(null, '', '/s1');
    await renderInApp(<>{chatFavouritesAddons.answerActions!({ chatMessageId: 'm1', exchange: { inputMessage: 'Q', outputMessage: 'A', modelName: null, chatMedias: [], citations: [], selection: null } })}</>, { apiBase: server.url, user: testUser });
    const star = await screen.findByRole('button', { name: 'Save to favourites' });
    await waitFor(() => expect(star).toBeEnabled());
    const show = vi.spyOn(notifications, 'show');
    const hide = vi.spyOn(notifications, 'hide');
    await userEvent.click(star);
    await userEvent.click(await screen.findByRole('button', { name: 'View' }));
    expect(window.location.pathname).toBe('/ans-fav/list');
    expect(hide.mock.calls).toEqual([[show.mock.results[0].value]]);

    // Removing says so, with nowhere to go.
    await userEvent.click(screen.getByRole('button', { name: 'Remove from favourites' }));
    // A toast on a busy machine (the whole client suite runs at once) can take more than findBy's second.
    const removed = (await screen.findByText('Removed from favourites', {}, { timeout: 5_000 })).closest('.mantine-Notification-root') as HTMLElement;
    expect(within(removed).queryByRole('button', { name: 'View' })).toBeNull();
  });
});
