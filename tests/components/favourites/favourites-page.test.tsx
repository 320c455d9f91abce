import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FavouritesPage } from '../../../components/favourites/favourites-page.tsx';
import { loginDialogAtom } from '../../../shared/atoms/login-dialog.ts';
import type { FavouriteListItem } from '../../../shared/contracts/favourites.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/** The user's favourites as the fake server keeps them, newest first. */
let saved: FavouriteListItem[];

const item = (n: number, fields: Partial<FavouriteListItem> = {}): FavouriteListItem => ({
  favouriteId: `f${n}`,
  question: `Question ${n}`,
  answer: `Answer **${n}**`,
  aiModelId: 'basic-model',
  modelName: 'Basic Model',
  answerTime: '2026-11-20T10:00:00.000Z',
  createTime: `2026-11-${String(10 + (n % 15)).padStart(2, '0')}T10:00:00.000Z`,
  updateTime: '2026-11-20T10:00:00.000Z',
  chatSessionId: `s${n}`,
  chatMessageId: `m${n}`,
  sourceExists: true,
  edited: false,
  answerTruncated: false,
  ...fields,
});

const server = serveTheseTests(
  fakeApi({
    '/api/Save/GetList': (_req, res, url) => {
      const page = Number(url.searchParams.get('page'));
      const count = Number(url.searchParams.get('count'));
      const q = url.searchParams.get('q')?.toLowerCase() ?? '';
      const found = saved.filter((f) => `${f.question}\n${f.answer}`.toLowerCase().includes(q));
      return sendEnvelope(res, { Code: 10000, Data: { list: found.slice((page - 1) * count, page * count), total: found.length } });
    },
    '/api/Save/Delete': (req, res) => {
      if (deleteRefused) return sendEnvelope(res, { Code: 10404, Msg: 'Not found.', Data: null });
      const { favouriteId } = JSON.parse(req.body) as { favouriteId: string };
      saved = saved.filter((f) => f.favouriteId !== favouriteId);
      return sendEnvelope(res, { Code: 10000, Data: null });
    },
  }),
);
const listCalls = () => server.requests.filter((r) => r.url.startsWith('/api/Save/GetList')).map((r) => new URL(r.url, 'http://x').searchParams);

let deleteRefused = false;

beforeEach(() => {
  deleteRefused = false;
  saved = Array.from({ length: 12 }, (_, i) => item(12 - i));
});

const cards = () => screen.queryAllByTestId('favourite-item');
const props = () => ({ onBack: vi.fn(), onEdit: vi.fn(), onOpenSource: vi.fn() });

describe('FavouritesPage', () => {
  it('asks a visitor to sign in, and asks the server nothing', async () => {
    const { store } = await renderInApp(<FavouritesPage {...props()} />, { apiBase: server.url, user: null });
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(store.get(loginDialogAtom)).toMatchObject({ open: true });
    expect(listCalls()).toHaveLength(0);
  });

  it('lists the newest first, 10 a page, each with its question, the answer rendered as in the chat, the model and the time', async () => {
    await renderInApp(<FavouritesPage {...props()} />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(cards()).toHaveLength(10));
    const first = cards()[0]!;
    expect(within(first).getByTestId('favourite-question')).toHaveTextContent('Question 12');
    // The chat's markdown renderer: **12** is bold.
    await waitFor(() => expect(within(first).getByTestId('favourite-answer').querySelector('strong')).toHaveTextContent('12'));
    expect(within(first).getByText('Basic Model')).toBeInTheDocument();
    expect(within(first).getByText(/^Saved 2026-11-/)).toBeInTheDocument();
    expect(screen.getByText('12 saved')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(within(cards()[0]!).getByTestId('favourite-question')).toHaveTextContent('Question 2');
    expect(listCalls().map((p) => p.get('page'))).toEqual(['1', '2']);
  });

  it('searches on the server once typing stops, and says when nothing matches', async () => {
    saved = [item(1, { question: 'Otters?', answer: '海獭会用石头砸开贝壳。' }), item(2, { question: 'Tides', answer: 'The moon.' })];
    await renderInApp(<FavouritesPage {...props()} />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(cards()).toHaveLength(2));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search saved answers' }), '石头');
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(cards()[0]).toHaveTextContent('Otters?');
    // One request for the whole word typed, not one per key.
    expect(listCalls().map((p) => p.get('q'))).toEqual([null, '石头']);

    await userEvent.clear(screen.getByRole('searchbox'));
    await userEvent.type(screen.getByRole('searchbox'), 'nothing like this');
    expect(await screen.findByTestId('favourites-empty')).toHaveTextContent('No saved answer contains “nothing like this”.');
  });

  it('links back to the source chat and message, or says the chat was deleted', async () => {
    saved = [item(1), item(2, { sourceExists: false })];
    const p = props();
    await renderInApp(<FavouritesPage {...p} />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(cards()).toHaveLength(2));
    await userEvent.click(within(cards()[0]!).getByRole('button', { name: 'Open in chat' }));
    expect(p.onOpenSource).toHaveBeenCalledWith('s1', 'm1');
    expect(within(cards()[1]!).queryByRole('button', { name: 'Open in chat' })).toBeNull();
    expect(within(cards()[1]!).getByTestId('favourite-source-deleted')).toHaveTextContent('Source chat deleted');
    await userEvent.click(within(cards()[1]!).getByRole('button', { name: 'Edit' }));
    expect(p.onEdit).toHaveBeenCalledWith('f2');
  });

  it('deletes after asking, and the list follows', async () => {
    saved = [item(1), item(2)];
    await renderInApp(<FavouritesPage {...props()} />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(cards()).toHaveLength(2));
    await userEvent.click(within(cards()[0]!).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete saved answer' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(cards()[0]).toHaveTextContent('Question 2');
    expect(server.requests.filter((r) => r.url === '/api/Save/Delete').map((r) => JSON.parse(r.body))).toEqual([{ favouriteId: 'f1' }]);
  });

  it("says 'Delete Failed' with the reason when the delete is refused, and the saved answer stays", async () => {
    saved = [item(1)];
    deleteRefused = true;
    await renderInApp(<FavouritesPage {...props()} />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(cards()).toHaveLength(1));
    await userEvent.click(within(cards()[0]!).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Delete saved answer' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Delete Failed: Not found.')).toBeInTheDocument();
    expect(cards()).toHaveLength(1);
  });
});
