import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatSidebar } from '../../../components/chat-history/chat-sidebar.tsx';
import { ShareSessionActions } from '../../../components/layout/chat-share.tsx';
import { MARKDOWN_TO_PDF_PATH } from '../../../shared/contracts/export.ts';
import type { ChatMessageItem } from '../../../shared/contracts/chat.ts';
import { answer, fakeApi, serveTheseTests, type Route } from '../../helpers/fake-api.ts';
import { createGate, sendEnvelope } from '../../helpers/http-server.ts';
import { listedMessage } from '../../helpers/messages.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';
import { catchDownloads } from '../../helpers/downloads.ts';

/**
 * "Export as PDF" in a chat's menu: the chat's Markdown (the Markdown export's, its title sent
 * apart) goes to the server, which answers the PDF; the file is saved under the Markdown export's
 * name with .pdf. A toast shows while the server makes it; a refusal shows the server's reason.
 */

const MESSAGES: ChatMessageItem[] = [
  listedMessage({ chatMessageId: 'm1', chatSessionId: 's1', inputMessage: 'Where should we stay?', outputMessage: 'Near **Gion**, 祇园.', modelName: 'Basic Model' }),
  listedMessage({ chatMessageId: 'm2', chatSessionId: 's1', inputMessage: 'And eat?', outputMessage: 'Try $x^2$ udon.', modelName: 'Basic Model' }),
];
const PDF_BYTES = Buffer.from('%PDF-1.7\n% a test file\n%%EOF\n', 'latin1');

const gate = createGate();
const sendPdf: Route = async (_req, res) => {
  await gate.wait();
  res.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="Kyoto trip.pdf"' });
  res.end(PDF_BYTES);
};

const server = serveTheseTests(
  fakeApi({
    '/api/Chat/GetChatSessionListBySelf': answer({
      list: [{ chatSessionId: 's1', sessionTitle: 'Kyoto trip', sessionDescribe: '', createTime: '2026-11-20T10:00:00.000Z', answering: false }],
      total: 1,
    }),
    '/api/Chat/GetChatMessageListBySelfSessionId': answer({ list: MESSAGES, total: MESSAGES.length }),
    [MARKDOWN_TO_PDF_PATH]: sendPdf,
  }),
);

afterEach(() => {
  gate.reset();
  vi.restoreAllMocks();
});

async function exportPdf() {
  await renderInApp(<ChatSidebar onNavigate={vi.fn()} sessionActions={ShareSessionActions} />, { apiBase: server.url, user: testUser });
  await userEvent.click(await screen.findByRole('button', { name: 'Actions for Kyoto trip' }));
  await userEvent.click(await screen.findByRole('menuitem', { name: 'Export as PDF', hidden: true }));
}

const pdfRequests = () => server.requests.filter((r) => r.url === MARKDOWN_TO_PDF_PATH);

describe("A chat's PDF export", () => {
  it("posts the chat's Markdown and saves the server's PDF under the chat's name, with a toast while it is made", async () => {
    const files = catchDownloads();
    const release = gate.hold();
    await exportPdf();
    expect(await screen.findByText('Making the PDF…')).toBeTruthy();
    await waitFor(() => expect(pdfRequests()).toHaveLength(1));
    const sent = JSON.parse(pdfRequests()[0]!.body) as { markdown: string; title: string; fileName: string; lang: string };
    expect(sent).toMatchObject({ title: 'Kyoto trip', fileName: 'Kyoto trip.pdf', lang: 'en' });
    expect(pdfRequests()[0]!.headers.authorization).toBe('Bearer test-token');
    // The Markdown export's text, without its title line (the server sets the title on the first page).
    expect(sent.markdown).toMatch(/^_Exported from Tandem on \d{4}-\d\d-\d\d \d\d:\d\d_\n\n## You\n\nWhere should we stay\?\n\n## Basic Model\n\nNear \*\*Gion\*\*, 祇园\.\n\n## You\n\nAnd eat\?\n\n## Basic Model\n\nTry \$x\^2\$ udon\.\n$/);
    expect(files).toEqual([]);

    release();
    await waitFor(() => expect(files).toHaveLength(1));
    expect(files[0]!.name).toBe('Kyoto trip.pdf');
    expect(Buffer.from(await files[0]!.blob.arrayBuffer())).toEqual(PDF_BYTES);
    expect(files[0]!.blob.type).toBe('application/pdf');
    await waitFor(() => expect(screen.queryByText('Making the PDF…')).toBeNull());
    expect(screen.queryByText('Download error, please try again later')).toBeNull();
  });

  it("shows the server's reason when it refuses, and a plain failure when it cannot be reached", async () => {
    const files = catchDownloads();
    server.handle(
      fakeApi({
        '/api/Chat/GetChatSessionListBySelf': answer({ list: [{ chatSessionId: 's1', sessionTitle: 'Kyoto trip', sessionDescribe: '', createTime: '2026-11-20T10:00:00.000Z', answering: false }], total: 1 }),
        '/api/Chat/GetChatMessageListBySelfSessionId': answer({ list: MESSAGES, total: MESSAGES.length }),
        [MARKDOWN_TO_PDF_PATH]: (_req, res) => sendEnvelope(res, { Code: 10429, Msg: 'The server is busy making other PDFs. Please try again in a minute.' }),
      }),
    );
    await exportPdf();
    expect(await screen.findByText('The server is busy making other PDFs. Please try again in a minute.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Making the PDF…')).toBeNull());

    server.handle(
      fakeApi({
        '/api/Chat/GetChatMessageListBySelfSessionId': answer({ list: MESSAGES, total: MESSAGES.length }),
        [MARKDOWN_TO_PDF_PATH]: (_req, res) => void res.writeHead(502).end('Bad gateway'),
      }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Actions for Kyoto trip' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Export as PDF', hidden: true }));
    expect(await screen.findByText('Download error, please try again later')).toBeTruthy();
    expect(pdfRequests()).toHaveLength(2);
    expect(files).toEqual([]);
  });
});
