import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRouter } from '../../../components/app-shell/router.tsx';
import { AppRoutes } from '../../../components/layout/app-routes.tsx';
import type { ChatMessageItem } from '../../../shared/contracts/chat.ts';
import { MARKDOWN_TO_PDF_PATH } from '../../../shared/contracts/export.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { testModel } from '../../helpers/models.ts';
import { listedMessage } from '../../helpers/messages.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';
import { catchDownloads } from '../../helpers/downloads.ts';

const message = (i: number, inputMessage: string, outputMessage: string): ChatMessageItem =>
  listedMessage({ chatMessageId: `m${i}`, chatSessionId: 's1', inputMessage, outputMessage, modelName: 'Basic Model' });

const MESSAGES = [message(1, 'Where should we stay in Kyoto?', 'Near **Gion**.'), message(2, 'And what should we eat?\nWe like noodles.', 'Try $x^2$ udon.')];

const server = serveTheseTests(
  fakeApi({
    '/api/Chat/GetModelListAll': answer([testModel('basic', 0, { name: 'Basic Model' })]),
    '/api/Chat/GetChatSessionListBySelf': answer({ list: [], total: 0 }),
    '/api/Chat/GetChatSession': (_req, res) => sendEnvelope(res, { Code: 10404, Msg: 'not found', Data: null }),
    '/api/Chat/GetChatMessageListBySelfSessionId': (_req, res, url) => {
      const list = url.searchParams.get('order') === 'desc' ? [...MESSAGES].reverse() : MESSAGES;
      return sendEnvelope(res, { Code: 10000, Data: { list, total: MESSAGES.length } });
    },
    '/api/Save/IsSaved': answer({ list: [] }),
    '/api/Browser/AddBrowser': answer(),
    [MARKDOWN_TO_PDF_PATH]: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end('%PDF-1.7 one answer');
    },
  }),
);

afterEach(() => vi.restoreAllMocks());

async function openAnswerMenu(index: number) {
  window.history.replaceState(null, '', '/s1');
  await renderInApp(
    <AppRouter platform={{ isExtension: false }}>
      <AppRoutes />
    </AppRouter>,
    { apiBase: server.url, user: testUser },
  );
  // Each answer's button is a chunk of its own: wait for both.
  await waitFor(() => expect(screen.getAllByRole('button', { name: 'Download this answer' })).toHaveLength(2));
  await userEvent.click(screen.getAllByRole('button', { name: 'Download this answer' })[index]!);
}

describe("an answer's download", () => {
  it('is among the actions of each answer beside the save star, and downloads that one answer with its question as Markdown', async () => {
    const files = catchDownloads();
    window.history.replaceState(null, '', '/s1');
    await renderInApp(
      <AppRouter platform={{ isExtension: false }}>
        <AppRoutes />
      </AppRouter>,
      { apiBase: server.url, user: testUser },
    );
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Download this answer' })).toHaveLength(2));
    const buttons = screen.getAllByRole('button', { name: 'Download this answer' });
    expect(screen.getAllByRole('button', { name: 'Save to favourites' })).toHaveLength(2);

    await userEvent.click(buttons[1]!);
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Export as Markdown', hidden: true }));
    await waitFor(() => expect(files).toHaveLength(1));
    expect(files[0]!.name).toBe('And what should we eat.md');
    const text = await files[0]!.blob.text();
    expect(text).toContain('# And what should we eat?');
    expect(text).toContain('We like noodles.');
    expect(text).toContain('Try $x^2$ udon.');
    // Only this exchange: not the chat's other one.
    expect(text).not.toContain('Kyoto');
    expect(within(document.body).queryByText('Could not export this answer. Try again.')).toBeNull();
  });
});

describe("an answer's PDF", () => {
  it('posts that one exchange as Markdown and saves the PDF under the name of its Markdown file, with .pdf', async () => {
    const files = catchDownloads();
    await openAnswerMenu(1);
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Export as PDF', hidden: true }));
    await waitFor(() => expect(files).toHaveLength(1));
    expect(files[0]!.name).toBe('And what should we eat.pdf');
    expect(await files[0]!.blob.text()).toBe('%PDF-1.7 one answer');
    const sent = server.requests.filter((r) => r.url === MARKDOWN_TO_PDF_PATH).map((r) => JSON.parse(r.body) as { markdown: string; title: string; fileName: string });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ title: 'And what should we eat?', fileName: 'And what should we eat.pdf' });
    expect(sent[0]!.markdown).toContain('And what should we eat?\nWe like noodles.');
    expect(sent[0]!.markdown).toContain('Try $x^2$ udon.');
    expect(sent[0]!.markdown).not.toContain('Kyoto');
  });
});
