import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SEARCH_TYPING_PAUSE_MS, SearchChatDialog } from '../../../components/chat-history/search-chat-dialog.tsx';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

const LONG_TITLE = 'A chat with a very long title that cannot fit on one line of the search results at all, not even on a wide screen';

const server = serveTheseTests(
  fakeApi({
    '/api/Chat/GetChatSessionListBySelf': (_req, res, url) => {
      const title = url.searchParams.get('sessionTitle') ?? '';
      const list = 'tomato'.startsWith(title) ? [{ chatSessionId: 's1', sessionTitle: 'Tomatoes', sessionDescribe: '', createTime: '2026-11-20T10:00:00.000Z', answering: false }] : [];
      return sendEnvelope(res, { Code: 10000, Data: { list, total: list.length } });
    },
    '/api/Chat/SearchMessages': (_req, res) => {
      const snippet = '…```python\nplant(**Tomato**) with $x^2$ sun';
      const hit = { chatSessionId: 's7', sessionTitle: LONG_TITLE, chatMessageId: 'm70', field: 'output', snippet, matchStart: snippet.indexOf('Tomato'), matchLength: 6, createTime: '2026-11-21T10:00:00.000Z' };
      return sendEnvelope(res, { Code: 10000, Data: { list: [hit], total: 1 } });
    },
  }),
);

const searches = () => server.requests.filter((r) => r.url.startsWith('/api/Chat/SearchMessages')).map((r) => new URL(r.url, 'http://x').searchParams.get('q'));

async function openDialog() {
  await renderInApp(<SearchChatDialog opened onClose={vi.fn()} onSelect={vi.fn()} onSelectMessage={vi.fn()} />, { apiBase: server.url, user: testUser });
  return screen.findByRole('textbox', { name: 'Search chats and messages' });
}

describe('searching chats', () => {
  it('searches as the user types, once typing pauses: one search for the whole word, none per letter', async () => {
    const box = await openDialog();
    // The pause is measured on a fake clock: a slow machine does not make it look like a pause mid-word.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // Letter by letter, each well within the pause.
      for (const typed of ['t', 'to', 'tom', 'toma', 'tomat', 'tomato']) {
        fireEvent.change(box, { target: { value: typed } });
        await act(() => vi.advanceTimersByTimeAsync(SEARCH_TYPING_PAUSE_MS / 3));
      }
      await act(() => vi.advanceTimersByTimeAsync(SEARCH_TYPING_PAUSE_MS - 1 - SEARCH_TYPING_PAUSE_MS / 3));
      expect(searches()).toEqual([]);
      await act(() => vi.advanceTimersByTimeAsync(1));
    } finally {
      vi.useRealTimers();
    }
    const inMessages = await screen.findByRole('group', { name: 'In messages' });
    await within(inMessages).findByText('Tomato');
    expect(await within(screen.getByRole('group', { name: 'Chat titles' })).findByText('Tomatoes')).toBeInTheDocument();
    expect(searches()).toEqual(['tomato']);
  });

  it('searches at once on Enter', async () => {
    const box = await openDialog();
    await userEvent.type(box, 'tom{Enter}');
    await waitFor(() => expect(searches()).toEqual(['tom']));
  });

  it('shows a snippet as plain text, and the date whole beside a long title', async () => {
    const box = await openDialog();
    await userEvent.type(box, 'tomato{Enter}');
    const row = (await within(await screen.findByRole('group', { name: 'In messages' })).findByText('Tomato')).closest('[role="listitem"]')!;
    expect(row.textContent).toContain('plant(Tomato) with x^2 sun');
    expect(row.textContent).not.toMatch(/```|\*\*|\$/);
    // The date is its own piece of text that does not shrink; the title is the one cut.
    const date = within(row as HTMLElement).getByText(/2026-11-21/);
    expect(date.textContent).toBe('· 2026-11-21');
    expect(date).toHaveStyle({ flexShrink: '0' });
    expect(within(row as HTMLElement).getByText(`in “${LONG_TITLE}”`)).toHaveClass('mantine-Text-root');
  });
});
