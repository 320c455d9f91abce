import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TranslatePage } from '../../../components/translate/translate-page.tsx';
import { translatePrefsAtom } from '../../../shared/atoms/translate.ts';
import { TRANSLATE_MAX_SEGMENTS, TRANSLATE_MAX_TOTAL_CHARS, type TransTextBody } from '../../../shared/contracts/translate.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { catchDownloads } from '../../helpers/downloads.ts';
import { fakeApi, serveTheseTests, type Route } from '../../helpers/fake-api.ts';
import { sendEnvelope, sleep } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/** Points a request costs at the fake's price: one point per started 100 characters. */
const priceOf = (segments: string[]) => Math.ceil(segments.reduce((n, s) => n + s.length, 0) / 100);

/**
 * The TransText route as the real one answers (server/services/translate): each segment as the fake
 * model translates it, "[<target>] <segment>", French detected for a "Bonjour"; an estimate answers
 * the price only. `fail` answers a refusal instead for the requests it picks; `delay` holds answers back.
 */
function fakeTranslate(options: Parameters<typeof translateRoute>[0] = {}) {
  return fakeApi({ '/api/System/TransText': translateRoute(options) });
}

function translateRoute(
  options: { fail?: (body: TransTextBody, attempt: number) => string | null; delay?: (body: TransTextBody) => number; drop?: (body: TransTextBody, attempt: number) => boolean } = {},
): Route {
  const attempts = new Map<string, number>();
  return async (req, res) => {
    const body = JSON.parse(req.body) as TransTextBody;
    const segments = body.segments ?? [body.text ?? ''];
    const cost = priceOf(segments);
    if (body.estimate) return sendEnvelope(res, { Code: 10000, Data: { translations: [], tagsKept: [], detectedLanguage: null, targetLanguage: body.targetLanguage, chars: 0, cost, balance: 100 } });
    const key = segments[0] ?? '';
    const attempt = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, attempt);
    await sleep(options.delay?.(body) ?? 0);
    // The connection drops before the answer (as when a proxy or the network loses it).
    if (options.drop?.(body, attempt)) return void res.socket?.destroy();
    const refusal = options.fail?.(body, attempt);
    if (refusal) return sendEnvelope(res, { Code: 10400, Msg: refusal });
    sendEnvelope(res, {
      Code: 10000,
      Data: {
        translations: segments.map((s) => (s.trim() === '' ? '' : `[${body.targetLanguage}] ${s}`)),
        tagsKept: segments.map(() => true),
        detectedLanguage: segments.some((s) => s.startsWith('Bonjour')) ? 'fr' : 'en',
        targetLanguage: body.targetLanguage,
        chars: segments.join('').length,
        cost,
        balance: 90,
      },
    });
  };
}

const server = serveTheseTests(fakeTranslate());
const translations = () => server.requests.filter((r) => r.url.startsWith('/api/System/TransText')).map((r) => JSON.parse(r.body) as TransTextBody);
const sent = () => translations().filter((b) => !b.estimate);
const source = () => screen.getByTestId('translate-source') as HTMLTextAreaElement;
const output = () => screen.getByTestId('translate-output');
const paste = (text: string) => fireEvent.change(source(), { target: { value: text } });

/** Paragraphs of `count` × about `size` characters, each told apart by its number. */
const paragraphs = (count: number, size: number) => Array.from({ length: count }, (_, i) => `Paragraph ${i + 1}. ${'word '.repeat(size / 5)}`.trim());

describe('the Translate page', () => {
  it('translates a pasted text into the app language, says what it detected, and remembers the language chosen', async () => {
    const { store } = await renderInApp(<TranslatePage onBack={() => {}} />, { apiBase: server.url, user: testUser });
    paste('Bonjour le monde.\n\nComment allez-vous ?');
    expect(screen.getByTestId('translate-count')).toHaveTextContent('39 characters');
    await userEvent.click(screen.getByRole('button', { name: 'Translate' }));
    await waitFor(() => expect(output()).toHaveTextContent('[en] Bonjour le monde.'));
    expect(output().textContent).toBe('[en] Bonjour le monde.\n\n[en] Comment allez-vous ?');
    expect(screen.getByTestId('translate-detected')).toHaveTextContent('Detected: French');
    expect(sent()).toEqual([{ segments: ['Bonjour le monde.', 'Comment allez-vous ?'], targetLanguage: 'en', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);

    await userEvent.selectOptions(screen.getByLabelText('Translate into'), 'ja');
    expect(store.get(translatePrefsAtom).targetLanguage).toBe('ja');
    await userEvent.click(screen.getByRole('button', { name: 'Translate' }));
    await waitFor(() => expect(output()).toHaveTextContent('[ja] Bonjour le monde.'));
  });

  it('shows the price before translating, asked once the text stops changing', async () => {
    await renderInApp(<TranslatePage onBack={() => {}} />, { apiBase: server.url, user: testUser });
    paste('Hello there, a text of some length.'.repeat(10));
    expect(await screen.findByTestId('translate-estimate')).toHaveTextContent('≈ 4 points (you have 100)');
    expect(translations()).toEqual([{ segments: ['Hello there, a text of some length.'.repeat(10)], targetLanguage: 'en', estimate: true }]);
    expect(sent()).toHaveLength(0);
  });

  it('sends a long text in batches within the limits, 3 at a time, and shows them in order whatever order they come back in', async () => {
    let inFlight = 0;
    let most = 0;
    server.handle(
      fakeTranslate({
        // The first batch is the slowest: the later ones come back before it.
        delay: (body) => {
          inFlight++;
          most = Math.max(most, inFlight);
          setTimeout(() => inFlight--, body.segments![0]!.startsWith('Paragraph 1.') ? 300 : 50);
          return body.segments![0]!.startsWith('Paragraph 1.') ? 300 : 50;
        },
      }),
    );
    await renderInApp(<TranslatePage onBack={() => {}} />, { apiBase: server.url, user: testUser });
    const text = paragraphs(12, 2500).join('\n\n');
    paste(text);
    expect(screen.getByTestId('translate-count')).toHaveTextContent('sent in 6 parts');
    await userEvent.click(screen.getByRole('button', { name: 'Translate' }));
    expect(await screen.findByTestId('translate-progress')).toHaveTextContent(/Translating: \d of 6 parts/);
    await waitFor(() => expect(screen.queryAllByTestId('translate-part')).toHaveLength(6), { timeout: 5000 });
    expect(output().textContent).toBe(
      paragraphs(12, 2500)
        .map((p) => `[en] ${p}`)
        .join('\n\n'),
    );
    for (const body of sent()) {
      expect(body.segments!.length).toBeLessThanOrEqual(TRANSLATE_MAX_SEGMENTS);
      expect(body.segments!.join('').length).toBeLessThanOrEqual(TRANSLATE_MAX_TOTAL_CHARS);
    }
    // Each paragraph sent once (three requests at a time may arrive in any order).
    expect(sent().flatMap((b) => b.segments!).sort()).toEqual(paragraphs(12, 2500).sort());
    expect(most).toBeLessThanOrEqual(3);
    expect(screen.getByTestId('translate-progress')).toHaveTextContent('Charged 306 points');
  });

  it('shows a failed batch with the server message; Retry sends that batch alone and nothing else is lost', async () => {
    server.handle(fakeTranslate({ fail: (body, attempt) => (body.segments![0]!.startsWith('Paragraph 3.') && attempt === 1 ? 'Not enough points for this translation.' : null) }));
    await renderInApp(<TranslatePage onBack={() => {}} />, { apiBase: server.url, user: testUser });
    paste(paragraphs(6, 2500).join('\n\n'));
    await userEvent.click(screen.getByRole('button', { name: 'Translate' }));
    const failed = await screen.findByTestId('translate-part-error');
    expect(failed).toHaveTextContent('Part 2 could not be translated: Not enough points for this translation.');
    await waitFor(() => expect(screen.queryAllByTestId('translate-part')).toHaveLength(2));
    expect(screen.getByRole('button', { name: 'Download' })).toBeDisabled();

    const before = sent().length;
    await userEvent.click(within(failed).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryAllByTestId('translate-part')).toHaveLength(3));
    expect(screen.queryByTestId('translate-part-error')).toBeNull();
    expect(sent().slice(before).map((b) => b.segments![0]!.slice(0, 13))).toEqual(['Paragraph 3. ']);
    // The retry is the same logical request: it sends the failed batch's idempotency key again.
    const ofPart2 = sent().filter((b) => b.segments![0]!.startsWith('Paragraph 3.'));
    expect(ofPart2).toHaveLength(2);
    expect(ofPart2[1]!.requestId).toBe(ofPart2[0]!.requestId);
    expect(new Set(sent().map((b) => b.requestId)).size).toBe(3);
    expect(output().textContent).toBe(
      paragraphs(6, 2500)
        .map((p) => `[en] ${p}`)
        .join('\n\n'),
    );
  });

  it('stops on request and continues with the batches not translated', async () => {
    server.handle(fakeTranslate({ delay: () => 200 }));
    await renderInApp(<TranslatePage onBack={() => {}} />, { apiBase: server.url, user: testUser });
    paste(paragraphs(16, 2500).join('\n\n'));
    await userEvent.click(screen.getByRole('button', { name: 'Translate' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(screen.getByTestId('translate-progress')).toHaveTextContent(/Stopped: \d of 8 parts translated/));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.queryAllByTestId('translate-part')).toHaveLength(8), { timeout: 5000 });
    expect(output().textContent).toBe(
      paragraphs(16, 2500)
        .map((p) => `[en] ${p}`)
        .join('\n\n'),
    );
  });

  it('opens a Markdown document and downloads its translation with the same lines, code kept', async () => {
    const files = catchDownloads();
    await renderInApp(<TranslatePage onBack={() => {}} />, { apiBase: server.url, user: testUser });
    const markdown = '# Notes\r\n\r\nFirst line\r\nsecond line\r\n\r\n```\r\nconst x = 1;\r\n```\r\n\r\n- item\r\n';
    await userEvent.upload(screen.getByTestId('translate-file'), new File([markdown], 'notes.md', { type: 'text/markdown' }));
    await waitFor(() => expect(source().value).toBe(markdown.replace(/\r\n/g, '\n')));
    expect(screen.getByText('Document: notes.md')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Translate into'), 'de');
    await userEvent.click(screen.getByRole('button', { name: 'Translate' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Download' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(files.map((f) => f.name)).toEqual(['notes.de.md']);
    expect(await files[0]!.blob.text()).toBe('[de] # Notes\n\n[de] First line\nsecond line\n\n```\nconst x = 1;\n```\n\n[de] - item\n');
    vi.restoreAllMocks();
  });

  it('says which documents it cannot open', async () => {
    await renderInApp(<TranslatePage onBack={() => {}} />, { apiBase: server.url, user: testUser });
    await userEvent.upload(screen.getByTestId('translate-file'), new File(['PK'], 'slides.pptx'), { applyAccept: false });
    expect(await screen.findByTestId('translate-file-error')).toHaveTextContent('slides.pptx cannot be opened here: only text files (.txt, .md, .srt, .vtt) and Word or PDF documents (.docx, .pdf)');
    expect(server.requests.filter((r) => r.url === '/api/System/DocumentText')).toHaveLength(0);
  });

  it('shows a translation into Arabic right to left', async () => {
    await renderInApp(<TranslatePage onBack={() => {}} />, { apiBase: server.url, user: testUser });
    await userEvent.selectOptions(screen.getByLabelText('Translate into'), 'ar');
    paste('Good morning');
    await userEvent.click(screen.getByRole('button', { name: 'Translate' }));
    await waitFor(() => expect(output()).toHaveTextContent('[ar] Good morning'));
    expect(output()).toHaveAttribute('dir', 'rtl');
  });

  it('translates into Simplified Chinese by default for a page in Chinese', async () => {
    await renderInApp(<TranslatePage onBack={() => {}} />, { apiBase: server.url, user: testUser });
    await setLanguage('zh');
    paste('Good morning');
    await userEvent.click(screen.getByRole('button', { name: '翻译' }));
    await waitFor(() => expect(output()).toHaveTextContent('[zh-Hans] Good morning'));
    expect(output()).toHaveAttribute('dir', 'ltr');
  });

  it('asks a visitor to sign in and asks the server nothing', async () => {
    await renderInApp(<TranslatePage onBack={() => {}} />, { apiBase: server.url, user: null });
    expect(screen.getByText('Sign in to translate texts and documents into another language.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByTestId('translate-source')).toBeNull();
    await sleep(700);
    expect(translations()).toHaveLength(0);
  });
});

describe('the Translate page: a lost answer, and Word and PDF documents', () => {
  it('sends a batch whose answer was lost once more with the same idempotency key (the server charges it once)', async () => {
    server.handle(fakeTranslate({ drop: (body, attempt) => body.segments![0]!.startsWith('Paragraph 1.') && attempt === 1 }));
    await renderInApp(<TranslatePage onBack={() => {}} />, { apiBase: server.url, user: testUser });
    paste(paragraphs(4, 2500).join('\n\n'));
    await userEvent.click(screen.getByRole('button', { name: 'Translate' }));
    await waitFor(() => expect(screen.queryAllByTestId('translate-part')).toHaveLength(2), { timeout: 5000 });
    expect(screen.queryByTestId('translate-part-error')).toBeNull();
    const ofPart1 = sent().filter((b) => b.segments![0]!.startsWith('Paragraph 1.'));
    expect(ofPart1).toHaveLength(2);
    expect(ofPart1[1]!.requestId).toBe(ofPart1[0]!.requestId);
    expect(sent().find((b) => b.segments![0]!.startsWith('Paragraph 3.'))!.requestId).not.toBe(ofPart1[0]!.requestId);
  });

  it('opens a Word or PDF document through the server as plain text, and downloads its translation as .txt', async () => {
    const pdfText = 'Page one.\n\n\f\n\nPage two.';
    server.handle(
      fakeApi({
        '/api/System/TransText': translateRoute(),
        '/api/System/DocumentText': (req, res) => {
          // The file goes as multipart form data, named as the user's.
          const named = /filename="([^"]+)"/.exec(req.body)?.[1] ?? '';
          if (named.endsWith('.pdf')) return sendEnvelope(res, { Code: 10000, Data: { fileName: named, text: pdfText, pageCount: 2 } });
          sendEnvelope(res, { Code: 10422, Msg: `${named} has no text layer.` });
        },
      }),
    );
    const files = catchDownloads();
    await renderInApp(<TranslatePage onBack={() => {}} />, { apiBase: server.url, user: testUser });
    const input = screen.getByTestId('translate-file') as HTMLInputElement;
    expect(input.accept.split(',')).toEqual(expect.arrayContaining(['.txt', '.md', '.srt', '.vtt', '.docx', '.pdf']));

    await userEvent.upload(input, new File(['%PDF-1.7 scan'], 'Scan.docx', { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }));
    expect(await screen.findByTestId('translate-file-error')).toHaveTextContent('Scan.docx has no text layer.');

    await userEvent.upload(input, new File(['%PDF-1.7'], 'Report.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(source().value).toBe(pdfText));
    expect(screen.queryByTestId('translate-file-error')).toBeNull();
    expect(screen.getByText('Document: Report.pdf (its text; the translation downloads as .txt)')).toBeInTheDocument();
    expect(server.requests.filter((r) => r.url === '/api/System/DocumentText')[1]!.headers['content-type']).toMatch(/^multipart\/form-data/);
    await userEvent.selectOptions(screen.getByLabelText('Translate into'), 'de');
    await userEvent.click(screen.getByRole('button', { name: 'Translate' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Download' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(files.map((f) => f.name)).toEqual(['Report.de.txt']);
    expect(await files[0]!.blob.text()).toBe('[de] Page one.\n\n\f\n\n[de] Page two.');
    vi.restoreAllMocks();
  });
});
