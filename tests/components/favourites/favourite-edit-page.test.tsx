import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FavouriteEditPage } from '../../../components/favourites/favourite-edit-page.tsx';
import type { FavouriteItem } from '../../../shared/contracts/favourites.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

let stored: FavouriteItem;

const server = serveTheseTests(
  fakeApi({
    '/api/Save/GetById': (_req, res, url) =>
      url.searchParams.get('favouriteId') === stored.favouriteId
        ? sendEnvelope(res, { Code: 10000, Data: stored })
        : sendEnvelope(res, { Code: 10404, Msg: 'Not found.', Data: null }),
    '/api/Save/Update': (req, res) => {
      const body = JSON.parse(req.body) as { answer: string; question?: string };
      stored = { ...stored, answer: body.answer, question: body.question ?? stored.question, edited: true, updateTime: new Date().toISOString() };
      return sendEnvelope(res, { Code: 10000, Data: stored });
    },
  }),
);
const updates = () => server.requests.filter((r) => r.url === '/api/Save/Update').map((r) => JSON.parse(r.body));

beforeEach(() => {
  stored = {
    favouriteId: 'f1',
    question: 'What do otters eat?',
    answer: 'Sea urchins and clams.',
    aiModelId: 'basic-model',
    modelName: 'Basic Model',
    answerTime: '2026-11-20T10:00:00.000Z',
    createTime: '2026-11-21T10:00:00.000Z',
    updateTime: '2026-11-21T10:00:00.000Z',
    chatSessionId: 's1',
    chatMessageId: 'm1',
    sourceExists: true,
    edited: false,
  };
});

const editor = () => screen.findByRole('textbox', { name: 'Answer (Markdown)' });
const preview = () => screen.getByTestId('favourite-preview');

describe('FavouriteEditPage', () => {
  it('edits the Markdown with a live preview rendered as in the chat, and saves the copy', async () => {
    const onBack = vi.fn();
    await renderInApp(<FavouriteEditPage favouriteId="f1" onBack={onBack} onOpenSource={vi.fn()} />, { apiBase: server.url, user: testUser });
    const box = await editor();
    expect(box).toHaveValue('Sea urchins and clams.');
    await waitFor(() => expect(preview()).toHaveTextContent('Sea urchins and clams.'));
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    fireEvent.change(box, { target: { value: '## Diet\n\nSea urchins and **crabs**.' } });
    await waitFor(() => expect(preview().querySelector('h2')).toHaveTextContent('Diet'));
    expect(preview().querySelector('strong')).toHaveTextContent('crabs');

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onBack).toHaveBeenCalled());
    expect(updates()).toEqual([{ favouriteId: 'f1', answer: '## Diet\n\nSea urchins and **crabs**.', question: 'What do otters eat?' }]);
  });

  it('formats the selection from the toolbar', async () => {
    await renderInApp(<FavouriteEditPage favouriteId="f1" onBack={vi.fn()} onOpenSource={vi.fn()} />, { apiBase: server.url, user: testUser });
    const box = (await editor()) as HTMLTextAreaElement;
    box.setSelectionRange(4, 15);
    await userEvent.click(screen.getByRole('button', { name: 'Bold' }));
    expect(box).toHaveValue('Sea **urchins and** clams.');
    await waitFor(() => expect(preview().querySelector('strong')).toHaveTextContent('urchins and'));
  });

  it('refuses an empty answer, and asks before leaving with unsaved changes', async () => {
    const onBack = vi.fn();
    await renderInApp(<FavouriteEditPage favouriteId="f1" onBack={onBack} onOpenSource={vi.fn()} />, { apiBase: server.url, user: testUser });
    const box = await editor();
    fireEvent.change(box, { target: { value: '   ' } });
    expect(await screen.findByText('Edited message required.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard changes?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep editing' }));
    expect(onBack).not.toHaveBeenCalled();
    // The page would be left (closed or reloaded): the browser is asked to confirm.
    const leaving = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(leaving);
    expect(leaving.defaultPrevented).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Discard changes?' })).getByRole('button', { name: 'Discard' }));
    expect(onBack).toHaveBeenCalledTimes(1);
    expect(updates()).toEqual([]);
  });

  it('leaves at once without changes, links to the source, and says when the source chat is gone', async () => {
    const onBack = vi.fn();
    const onOpenSource = vi.fn();
    const { unmount } = await renderInApp(<FavouriteEditPage favouriteId="f1" onBack={onBack} onOpenSource={onOpenSource} />, { apiBase: server.url, user: testUser });
    await editor();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onBack).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Open in chat' }));
    expect(onOpenSource).toHaveBeenCalledWith('s1', 'm1');
    unmount();

    stored = { ...stored, sourceExists: false };
    await renderInApp(<FavouriteEditPage favouriteId="f1" onBack={vi.fn()} onOpenSource={vi.fn()} />, { apiBase: server.url, user: testUser });
    expect(await screen.findByTestId('favourite-source-deleted')).toHaveTextContent('Source chat deleted');
  });

  it('says so when the favourite does not exist', async () => {
    await renderInApp(<FavouriteEditPage favouriteId="gone" onBack={vi.fn()} onOpenSource={vi.fn()} />, { apiBase: server.url, user: testUser });
    expect(await screen.findByText('This saved answer does not exist, or was deleted.', {}, { timeout: 5000 })).toBeInTheDocument();
  });
});
