import { notifications } from '@mantine/notifications';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBrowser } from 'wxt/testing';
import type { Browser } from 'wxt/browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatView } from '../../../components/chat/chat-view.tsx';
import { fileNameOf, modelAccepts } from '../../../components/chat/use-attachments.ts';
import { loginDialogAtom } from '../../../shared/atoms/login-dialog.ts';
import { answer, answerChat, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { createGate, sendEnvelope } from '../../helpers/http-server.ts';
import { testModel } from '../../helpers/models.ts';
import { fieldsOf, formOf } from '../../helpers/multipart.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/** Reads images and PDFs, and searches the web: the default pick (first model). */
const VISION = testModel('vision', 0, { modelMap: { isImage: true, fileTypes: ['pdf'] }, webSearch: true });
/** Reads neither files nor images, nor searches. */
const TEXT = testModel('text', 0);
/** Reads PDFs and text files, no images. */
const DOCS = testModel('docs', 0, { modelMap: { isImage: false, fileTypes: ['pdf', 'txt'] } });

/** A 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const png = (name: string) => new File([Uint8Array.from(atob(PNG_BASE64), (c) => c.charCodeAt(0))], name, { type: 'image/png' });
const pdf = (name: string, size = 64) => new File([new Uint8Array(size).fill(37)], name, { type: 'application/pdf' });

const REFUSAL = 'This PDF has no readable text.';

/** While held, AddChatMedia answers only once the test releases it. */
const gate = createGate();
/** File names AddChatMedia refuses (10422) the next time, and those it fails with an HTTP 500. */
let refuseOnce = new Set<string>();
let crashOnce = new Set<string>();
let mediaIds = 0;

const server = serveTheseTests(
  fakeApi({
    '/api/System/GetSettingListAll': answer([{ settingKey: 'web_search_provider', settingValue: 'fake' }]),
    '/api/Chat/GetModelListAll': answer([VISION, TEXT, DOCS]),
    '/api/Chat/UploadMedia': (req, res) => {
      const { url: page } = JSON.parse(req.body) as { url: string };
      const Data = { chatMediaId: `page-${++mediaIds}`, image: { imgSrcAll: '' }, pageFilePath: '', iconStr: '', pageUrl: page, pageTitle: 'A page' };
      return sendEnvelope(res, { Code: 10000, Data });
    },
    '/api/Chat/AddChatMedia': async (req, res) => {
      const form = await formOf(req);
      await gate.wait();
      const { mediaType, pageTitle } = fieldsOf(form);
      if (refuseOnce.delete(pageTitle)) return sendEnvelope(res, { Code: 10422, Msg: REFUSAL });
      if (crashOnce.delete(pageTitle)) {
        res.writeHead(500).end('boom');
        return;
      }
      const chatMediaId = `m-${++mediaIds}`;
      // As the server does: a signed link to the bytes, relative to the server (shared/utils/image-link.ts).
      const link = `/api/Chat/GetChatMedia?chatMediaId=${chatMediaId}&sig=s`;
      return sendEnvelope(res, { Code: 10000, Data: { chatMediaId, image: { imgSrcAll: mediaType === 'image' ? link : '' }, pageFilePath: link, iconStr: '', pageUrl: '', pageTitle } });
    },
    '/api/Chat/AddMessage': answerChat('Seen them.', { ModelName: 'Fake', ModelId: 'vision' }),
  }),
);

/** Holds every AddChatMedia answer until the returned function is called. */
const holdUploads = () => gate.hold();

const mediaUploads = () => server.requests.filter((r) => r.url.includes('AddChatMedia'));

let objectUrls = 0;
let createObjectURL: ReturnType<typeof vi.spyOn>;
let revokeObjectURL: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  gate.reset();
  refuseOnce = new Set();
  crashOnce = new Set();
  fakeBrowser.reset();
  // Notifications live in one store for the whole file; beyond five, new ones wait in a queue.
  notifications.clean();
  // Node's own object URLs take only Node's Blobs: these stand for the browser's.
  createObjectURL = vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:tandem/${++objectUrls}`);
  revokeObjectURL = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

async function renderChat(platform: { isExtension?: boolean } = {}, user = testUser) {
  const result = await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, {
    apiBase: server.url,
    user,
    platform: platform.isExtension ? { isExtension: true, scene: 'extension' } : {},
  });
  await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('vision'));
  return result;
}

const fileInput = () => screen.getByTestId('attach-file-input') as HTMLInputElement;
const chips = () => screen.queryAllByRole('listitem').filter((e) => e.classList.contains('attachment-chip'));
const chipOf = (text: string | RegExp) => {
  const chip = chips().find((c) => (typeof text === 'string' ? c.textContent?.includes(text) : text.test(c.textContent ?? '')));
  if (!chip) throw new Error(`no chip with ${String(text)}`);
  return chip;
};
const statuses = () => chips().map((c) => c.getAttribute('data-status'));

async function pickModel(name: string) {
  await userEvent.click(screen.getByTestId('model-picker'));
  // The menu's transition leaves its items aria-hidden under jsdom for a moment.
  await userEvent.click(await screen.findByRole('menuitem', { name: new RegExp(`^${name}`), hidden: true }));
}

describe('attachment rules', () => {
  it('names a pasted image without extension after its MIME subtype', () => {
    expect(fileNameOf(new File(['x'], 'image', { type: 'image/png' }))).toBe('image.png');
    expect(fileNameOf(new File(['x'], 'Photo.JPG', { type: 'image/jpeg' }))).toBe('Photo.JPG');
    expect(fileNameOf(new File(['x'], 'Makefile', { type: '' }))).toBe('Makefile');
  });

  it('tells which attachments a model reads: pages always, images with isImage, files by extension', () => {
    const page = { type: 'html' as const, name: 'https://example.com/' };
    const image = { type: 'image' as const, name: 'Otter.PNG' };
    const doc = { type: 'file' as const, name: 'notes.pdf' };
    expect([page, image, doc].map((item) => modelAccepts(VISION.modelMap, item))).toEqual([true, true, true]);
    expect([page, image, doc].map((item) => modelAccepts(TEXT.modelMap, item))).toEqual([true, false, false]);
    expect([page, image, doc].map((item) => modelAccepts(DOCS.modelMap, item))).toEqual([true, false, true]);
  });
});

describe('files and images in the composer', () => {
  it('uploads picked files (loading, then a thumbnail or a file icon) and sends their ids', async () => {
    const release = holdUploads();
    await renderChat();
    const attach = screen.getByRole('button', { name: 'Attach a file' });
    expect(attach).toBeEnabled();
    // The file chooser offers what the current model accepts.
    expect(fileInput()).toHaveAttribute('accept', '.png,.jpeg,.jpg,.webp,.pdf');

    await userEvent.upload(fileInput(), [png('otter.png'), pdf('notes.pdf')]);
    expect(statuses()).toEqual(['loading', 'loading']);
    const image = chipOf('otter.png');
    expect(image).toHaveAttribute('data-type', 'image');
    expect(within(image).getByLabelText('Uploading…')).toBeInTheDocument();
    expect(image.querySelector('img')).toHaveAttribute('src', 'blob:tandem/' + objectUrls);
    expect(chipOf('notes.pdf')).toHaveAttribute('data-type', 'file');
    // Only the image has a thumbnail of its own bytes.
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    expect((createObjectURL.mock.calls[0][0] as File).name).toBe('otter.png');
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'What are these?');
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();

    release();
    await waitFor(() => expect(statuses()).toEqual(['completed', 'completed']));
    expect(chipOf('otter.png').querySelector('img')).toHaveAttribute('src', `blob:tandem/${objectUrls}`);
    expect(within(chipOf('notes.pdf')).getByRole('button', { name: 'Remove notes.pdf' })).toBeEnabled();

    // Multipart, as AddChatMedia takes it: the image as imageFile, the document as pageFile.
    const [first, second] = await Promise.all(mediaUploads().map(formOf));
    expect(fieldsOf(first)).toEqual({ mediaType: 'image', pageTitle: 'otter.png', pageUrl: '', aiModelId: 'vision' });
    expect([(first.get('imageFile') as File).name, (first.get('imageFile') as File).type]).toEqual(['otter.png', 'image/png']);
    expect(fieldsOf(second)).toEqual({ mediaType: 'file', pageTitle: 'notes.pdf', pageUrl: '', aiModelId: 'vision' });
    expect((second.get('pageFile') as File).name).toBe('notes.pdf');

    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByText('Seen them.');
    const body = JSON.parse(server.requests.find((r) => r.url.includes('AddMessage'))!.body) as { chatMediaIds: string[] };
    expect(body.chatMediaIds).toEqual([`m-${mediaIds - 1}`, `m-${mediaIds}`]);
    expect(chips()).toHaveLength(0);
    // Sent: the local bytes are let go; the bubble loads the image from the server (shared/utils/image-link.ts).
    expect(revokeObjectURL).toHaveBeenCalledWith(`blob:tandem/${objectUrls}`);
    const sent = screen.getByRole('list', { name: 'Attached to this message' });
    const link = within(sent).getByRole('link', { name: 'otter.png' });
    const src = `${server.url}/api/Chat/GetChatMedia?chatMediaId=m-${mediaIds - 1}&sig=s`;
    expect(link).toHaveAttribute('href', src);
    expect(link.querySelector('img')).toHaveAttribute('src', src);
    expect(within(sent).getByRole('link', { name: 'notes.pdf' })).toHaveAttribute('href', `${server.url}/api/Chat/GetChatMedia?chatMediaId=m-${mediaIds}&sig=s`);
  });

  it("shows the server's refusal (or the upload failure) with Retry and Remove", async () => {
    refuseOnce.add('scan.pdf');
    crashOnce.add('photo.webp');
    await renderChat();
    await userEvent.upload(fileInput(), [pdf('scan.pdf'), new File(['webp'], 'photo.webp', { type: 'image/webp' })]);
    await waitFor(() => expect(statuses()).toEqual(['error', 'error']));
    const scan = chipOf('scan.pdf');
    expect(within(scan).getByText(REFUSAL)).toBeInTheDocument();
    // Not the server's answer: the client's own uploadMediaFail.
    expect(within(chipOf('photo.webp')).getByText('The attachment could not be uploaded')).toBeInTheDocument();

    await userEvent.click(within(scan).getByRole('button', { name: 'Upload scan.pdf again' }));
    await waitFor(() => expect(chipOf('scan.pdf')).toHaveAttribute('data-status', 'completed'));
    expect(screen.queryByText(REFUSAL)).toBeNull();

    const preview = chipOf('photo.webp').querySelector('img')!.getAttribute('src');
    await userEvent.click(within(chipOf('photo.webp')).getByRole('button', { name: 'Remove photo.webp' }));
    expect(chips()).toHaveLength(1);
    expect(revokeObjectURL).toHaveBeenCalledWith(preview);
    expect(mediaUploads()).toHaveLength(3);
  });

  it('refuses before uploading: a type the model does not take (naming what it reads), 10 MB or more, a sixth item', async () => {
    const user = userEvent.setup({ applyAccept: false });
    await renderChat();
    // The paperclip says what the model reads in words, not as its list of extensions.
    expect(screen.getByRole('button', { name: 'Attach a file' })).toHaveAccessibleDescription('Attach images and PDF files, smaller than 10 MB');
    await user.upload(fileInput(), new File(['gif'], 'cat.gif', { type: 'image/gif' }));
    expect(await screen.findByText('cat.gif cannot be attached: vision reads images and PDF files')).toBeInTheDocument();
    // No model reads GIFs: none is offered.
    expect(screen.queryByRole('button', { name: /^Use / })).toBeNull();
    await user.upload(fileInput(), pdf('big.pdf', 10 * 1024 * 1024));
    expect(await screen.findByText('big.pdf is too large: files must be smaller than 10 MB')).toBeInTheDocument();
    expect(chips()).toHaveLength(0);

    // The extension is read case-insensitively, after the last dot; just under 10 MB passes.
    await user.upload(fileInput(), [png('holiday.v2.JPG'), pdf('a.pdf', 10 * 1024 * 1024 - 1), pdf('b.pdf'), pdf('c.pdf'), pdf('d.pdf')]);
    await waitFor(() => expect(statuses()).toEqual(['completed', 'completed', 'completed', 'completed', 'completed']), { timeout: 15_000 });
    expect(chipOf('holiday.v2.JPG')).toHaveAttribute('data-type', 'image');
    await user.upload(fileInput(), pdf('e.pdf'));
    expect(await screen.findByText('A message can carry at most 5 attachments')).toBeInTheDocument();
    expect(chips()).toHaveLength(5);
    // Uploads run side by side: the big one may arrive last.
    expect(mediaUploads().map((r) => /filename="([^"]+)"/.exec(r.body)?.[1]).sort()).toEqual(['a.pdf', 'b.pdf', 'c.pdf', 'd.pdf', 'holiday.v2.JPG']);
  });

  it('uploads a pasted image, and refuses a pasted image of a type the model does not take', async () => {
    await renderChat();
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.paste(box, { clipboardData: { files: [new File(['gif'], 'image.gif', { type: 'image/gif' })], types: ['Files'] } });
    expect(await screen.findByText('image.gif cannot be attached: vision reads images and PDF files')).toBeInTheDocument();
    expect(chips()).toHaveLength(0);

    // A clipboard image without a name's extension takes its MIME subtype.
    fireEvent.paste(box, { clipboardData: { files: [new File([png('x').slice()], 'image', { type: 'image/png' })], types: ['Files'] } });
    await waitFor(() => expect(chipOf('image.png')).toHaveAttribute('data-status', 'completed'));
    expect(chipOf('image.png')).toHaveAttribute('data-type', 'image');
    expect(mediaUploads()).toHaveLength(1);
  });

  it('uploads a dropped file, one per drop, saying so while files are dragged over', async () => {
    await renderChat();
    const view = document.querySelector('.chat-view')!;
    const files = [pdf('first.pdf'), pdf('second.pdf')];
    fireEvent.dragEnter(view, { dataTransfer: { types: ['Files'], files, getData: () => '' } });
    expect(screen.getByRole('status')).toHaveTextContent('drag attachment upload');
    fireEvent.drop(view, { dataTransfer: { types: ['Files'], files, getData: () => '' } });
    expect(screen.queryByText('drag attachment upload')).toBeNull();
    await waitFor(() => expect(chipOf('first.pdf')).toHaveAttribute('data-status', 'completed'));
    expect(chips()).toHaveLength(1);
    expect(await screen.findByText('Only one file can be dropped at a time: first.pdf was added, the others were left out')).toBeInTheDocument();
    expect(mediaUploads()).toHaveLength(1);
  });

  it('asks a visitor to sign in instead of opening the file chooser or uploading a paste', async () => {
    const { store } = await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: null });
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('vision'));
    const click = vi.spyOn(HTMLInputElement.prototype, 'click');
    await userEvent.click(await screen.findByRole('button', { name: 'Attach a file' }));
    expect(store.get(loginDialogAtom)).toEqual({ open: true, notice: 'chat.notLoginTip' });
    expect(click).not.toHaveBeenCalled();
    fireEvent.paste(screen.getByRole('textbox', { name: 'Message' }), { clipboardData: { files: [png('a.png')], types: ['Files'] } });
    expect(chips()).toHaveLength(0);
    expect(mediaUploads()).toHaveLength(0);
  });
});

describe('model switch', () => {
  it('asks before switching to a model that cannot read the attachments: cancel keeps all, confirm removes those', async () => {
    await renderChat();
    await userEvent.upload(fileInput(), [png('otter.png'), pdf('notes.pdf')]);
    await userEvent.click(screen.getByRole('button', { name: 'Attach a web page' }));
    await userEvent.type(await screen.findByRole('textbox', { name: 'Web page address' }), 'https://example.com/otters{Enter}');
    await waitFor(() => expect(statuses()).toEqual(['completed', 'completed', 'completed']));
    expect(screen.getByRole('button', { name: 'Search the web' })).toBeEnabled();

    await pickModel('text');
    let dialog = await screen.findByRole('dialog', { name: 'Switch model?' });
    expect(dialog).toHaveTextContent('text cannot read otter.png and notes.pdf. Switch anyway and remove them from this message?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep current model' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('model-picker')).toHaveTextContent('vision');
    expect(chips()).toHaveLength(3);
    expect(revokeObjectURL).not.toHaveBeenCalled();

    await pickModel('text');
    dialog = await screen.findByRole('dialog', { name: 'Switch model?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Switch and remove' }));
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('text'));
    // The dialog fades out (Mantine keeps it mounted meanwhile): gone before the next question is looked for.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The page stays: every model reads pages.
    expect(chips().map((c) => c.getAttribute('data-type'))).toEqual(['html']);
    expect(revokeObjectURL).toHaveBeenCalledTimes(1);
    // This model cannot search the web nor take files: both say why.
    expect(screen.getByRole('button', { name: 'text cannot search the web' })).toBeDisabled();
    const attach = screen.getByRole('button', { name: 'Attach a file' });
    expect(attach).toBeDisabled();
    expect(attach).toHaveAccessibleDescription('text does not accept files or images');

    // What the new model reads needs no question.
    await pickModel('docs');
    await userEvent.upload(fileInput(), pdf('report.pdf'));
    await pickModel('vision');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('model-picker')).toHaveTextContent('vision');
    expect(chips()).toHaveLength(2);
  });

  it('offers the model that reads an image when the current one does not: one click switches and attaches it', async () => {
    await renderChat();
    await pickModel('docs');
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('docs'));
    expect(screen.getByRole('button', { name: 'Attach a file' })).toHaveAccessibleDescription('Attach PDF and text files, smaller than 10 MB');
    fireEvent.paste(screen.getByRole('textbox', { name: 'Message' }), { clipboardData: { files: [png('otter.png')], types: ['Files'] } });
    expect(await screen.findByText('otter.png cannot be attached: docs reads PDF and text files')).toBeInTheDocument();
    expect(chips()).toHaveLength(0);
    expect(mediaUploads()).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Use vision' }));
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('vision'));
    await waitFor(() => expect(chipOf('otter.png')).toHaveAttribute('data-status', 'completed'));
    expect(chipOf('otter.png')).toHaveAttribute('data-type', 'image');
    expect(mediaUploads()).toHaveLength(1);
    // Taking the offer closed the refusal.
    await waitFor(() => expect(screen.queryByText('otter.png cannot be attached: docs reads PDF and text files')).toBeNull());
  });

  it('asks first when the model offered cannot read what is already attached; keeping the model drops the offered file', async () => {
    await renderChat();
    await pickModel('docs');
    await userEvent.upload(fileInput(), new File(['notes'], 'notes.txt', { type: 'text/plain' }));
    await waitFor(() => expect(statuses()).toEqual(['completed']));
    fireEvent.paste(screen.getByRole('textbox', { name: 'Message' }), { clipboardData: { files: [png('otter.png')], types: ['Files'] } });
    await userEvent.click(await screen.findByRole('button', { name: 'Use vision' }));
    const dialog = await screen.findByRole('dialog', { name: 'Switch model?' });
    expect(dialog).toHaveTextContent('vision cannot read notes.txt.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep current model' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('model-picker')).toHaveTextContent('docs');
    expect(chips().map((c) => c.textContent)).toEqual([expect.stringContaining('notes.txt')]);

    // A later switch to another model does not bring the refused image back.
    await pickModel('text');
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Switch model?' })).getByRole('button', { name: 'Switch and remove' }));
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('text'));
    expect(chips()).toHaveLength(0);
    expect(mediaUploads()).toHaveLength(1);
  });
});

/** The browser's active tab, as in attachments.test.tsx: the fake browser cannot make a tab active. */
let activeTab: Browser.tabs.Tab | undefined;

async function activateTab(url: string, title: string): Promise<void> {
  activeTab = { id: 21, windowId: 7, index: 0, url, title, active: true, status: 'complete' } as Browser.tabs.Tab;
  await fakeBrowser.tabs.onActivated.trigger({ tabId: 21, windowId: 7 });
}

describe('side panel: screenshot of the tab', () => {
  beforeEach(() => {
    activeTab = undefined;
    vi.spyOn(fakeBrowser.tabs, 'query').mockImplementation(async () => (activeTab ? [activeTab] : []));
  });

  it('attaches the visible tab as screenshot-<timestamp>.png, for models that read images only', async () => {
    await activateTab('https://example.com/', 'Example');
    const capture = vi
      .spyOn(fakeBrowser.tabs, 'captureVisibleTab')
      .mockImplementation((async () => `data:image/png;base64,${PNG_BASE64}`) as unknown as typeof fakeBrowser.tabs.captureVisibleTab);
    await renderChat({ isExtension: true });
    const before = Date.now();
    await userEvent.click(await screen.findByRole('button', { name: 'Attach a screenshot of this tab' }));
    await waitFor(() => expect(chipOf(/^screenshot-\d+\.png/)).toHaveAttribute('data-status', 'completed'));
    expect(capture).toHaveBeenCalledWith(7, { format: 'png' });

    const form = await formOf(mediaUploads()[0]);
    const file = form.get('imageFile') as File;
    const stamp = Number(/^screenshot-(\d+)\.png$/.exec(file.name)?.[1]);
    expect(stamp).toBeGreaterThanOrEqual(before);
    expect(stamp).toBeLessThanOrEqual(Date.now());
    expect([file.type, fieldsOf(form).mediaType]).toEqual(['image/png', 'image']);

    // A model without images is not offered screenshots (and switching to one drops the screenshot).
    await pickModel('docs');
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Switch model?' })).getByRole('button', { name: 'Switch and remove' }));
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('docs'));
    expect(chips()).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Attach a screenshot of this tab' })).toBeNull();
  });

  it('is greyed out beside a browser page, and tells a capture that failed', async () => {
    await activateTab('chrome://settings/', 'Settings');
    await renderChat({ isExtension: true });
    const button = await screen.findByRole('button', { name: 'Attach a screenshot of this tab' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription("The browser's own pages cannot be read or captured");

    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const capture = vi.spyOn(fakeBrowser.tabs, 'captureVisibleTab').mockRejectedValue(new Error('Cannot access contents of url'));
    await act(() => activateTab('https://example.com/', 'Example'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Attach a screenshot of this tab' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Attach a screenshot of this tab' }));
    expect(await screen.findByText('The screenshot could not be taken')).toBeInTheDocument();
    expect(capture).toHaveBeenCalledWith(7, { format: 'png' });
    expect(chips()).toHaveLength(0);
  });
});
