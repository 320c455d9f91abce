import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBrowser } from 'wxt/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Browser } from 'wxt/browser';
import { ChatView } from '../../../components/chat/chat-view.tsx';
import { unreadableReason, useCurrentTab } from '../../../components/chat/current-tab.ts';
import { parsePageUrl } from '../../../components/chat/use-attachments.ts';
import { loginDialogAtom } from '../../../shared/atoms/login-dialog.ts';
import { readDocument } from '../../../shared/utils/read-document.ts';
import { answer, answerChat, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { createGate, sendEnvelope } from '../../helpers/http-server.ts';
import { fieldsOf, formOf } from '../../helpers/multipart.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';
import { extensionTabs } from '../../../shared/platform/extension.ts';

const MODEL = testModel('basic', 0);

const REFUSAL = 'This address cannot be read: only public web pages can be read.';

type Envelope = { Code: number; Msg?: string; Data?: unknown };

/** While held, UploadMedia and AddChatMedia answer only once the test releases them. */
const gate = createGate();
/** Addresses UploadMedia refuses (10422) the next time they are asked for. */
let refuseOnce = new Set<string>();
let mediaIds = 0;
/** The chatMediaId answered for each address read. */
const issued = new Map<string, string>();

function readPage(url: string): Envelope {
  if (refuseOnce.delete(url)) return { Code: 10422, Msg: REFUSAL };
  const { hostname, pathname } = new URL(url);
  const chatMediaId = `media-${++mediaIds}`;
  issued.set(url, chatMediaId);
  return {
    Code: 10000,
    Data: {
      chatMediaId,
      image: { imgSrcAll: '' },
      pageFilePath: '',
      iconStr: hostname === 'example.com' ? 'https://example.com/favicon.ico' : '',
      pageUrl: url,
      pageTitle: `Page ${hostname}${pathname}`,
    },
  };
}

const handler = fakeApi({
  '/api/Chat/GetModelListAll': answer([MODEL]),
  '/api/Chat/UploadMedia': async (req, res) => {
    const { url: page } = JSON.parse(req.body) as { url: string };
    await gate.wait();
    return sendEnvelope(res, readPage(page));
  },
  // The extension's "Read this page": the page read in the tab, as Markdown.
  '/api/Chat/AddChatMedia': async (req, res) => {
    const form = await formOf(req);
    await gate.wait();
    const fields = fieldsOf(form);
    return sendEnvelope(res, {
      Code: 10000,
      Data: { chatMediaId: `tab-media-${++mediaIds}`, image: { imgSrcAll: '' }, pageFilePath: '', iconStr: '', pageUrl: fields.pageUrl, pageTitle: fields.pageTitle },
    });
  },
  '/api/Chat/AddMessage': answerChat('Read it.', { ModelName: 'Fake' }),
});
const server = serveTheseTests(handler);

/** Holds every upload's answer (UploadMedia, AddChatMedia) until the returned function is called. */
const holdUploads = () => gate.hold();

const uploads = () => server.requests.filter((r) => r.url.includes('UploadMedia')).map((r) => (JSON.parse(r.body) as { url: string }).url);

beforeEach(() => {
  gate.reset();
  refuseOnce = new Set();
  fakeBrowser.reset();
});

async function renderChat(platform: { isExtension?: boolean; isH5?: boolean } = {}) {
  const result = await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, {
    apiBase: server.url,
    user: testUser,
    platform: platform.isExtension ? { isExtension: true, scene: 'extension', ...platform } : platform,
  });
  await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('basic'));
  return result;
}

/** Types `url` in the attach popover and submits it with Enter; answers the field (still shown on a refusal). */
async function attach(url: string): Promise<HTMLElement> {
  const button = screen.getByRole('button', { name: 'Attach a web page' });
  if (button.getAttribute('aria-expanded') !== 'true') await userEvent.click(button);
  const field = await screen.findByRole('textbox', { name: 'Web page address' });
  await userEvent.clear(field);
  await userEvent.type(field, url ? `${url}{Enter}` : '{Enter}');
  return field;
}

const chips = () => screen.queryAllByRole('listitem').filter((e) => e.classList.contains('attachment-chip'));
const chipOf = (text: string | RegExp) => {
  const chip = chips().find((c) => (typeof text === 'string' ? c.textContent?.includes(text) : text.test(c.textContent ?? '')));
  if (!chip) throw new Error(`no chip with ${String(text)}`);
  return chip;
};

describe('parsePageUrl', () => {
  it('accepts http(s) pages (a bare host is read as https), drops the fragment and refuses the rest', () => {
    expect(parsePageUrl(' https://example.com/a#part ')).toBe('https://example.com/a');
    expect(parsePageUrl('example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(parsePageUrl('http://localhost:3000/x')).toBe('http://localhost:3000/x');
    for (const bad of ['', 'hello', 'not a url', 'ftp://example.com/f', 'javascript:alert(1)', 'mailto:a@example.com', 'chrome://extensions', `https://e.com/${'a'.repeat(2100)}`]) {
      expect(parsePageUrl(bad), bad).toBeNull();
    }
  });
});

describe('web page attachments', () => {
  it('shows a loading chip (Send disabled, saying why), then the page title and icon', async () => {
    const release = holdUploads();
    const { container } = await renderChat();
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Summarise this');

    await attach('https://example.com/article');
    // The popover closes on success.
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Web page address' })).toBeNull());
    const chip = chipOf('https://example.com/article');
    expect(chip).toHaveAttribute('data-status', 'loading');
    expect(within(chip).getByLabelText('Reading the page…')).toBeInTheDocument();
    expect(within(chip).getByRole('button', { name: 'Remove https://example.com/article' })).toBeEnabled();
    expect(screen.getByRole('list', { name: 'Attachments' })).toBeInTheDocument();

    const sendButton = screen.getByRole('button', { name: 'Send' });
    expect(sendButton).toBeDisabled();
    expect(sendButton).toHaveAttribute('aria-description', 'Wait until the attachments have finished loading');
    await userEvent.hover(sendButton.parentElement!);
    expect(await screen.findByText('Wait until the attachments have finished loading')).toBeInTheDocument();
    await userEvent.keyboard('{Enter}');
    expect(server.requests.some((r) => r.url.includes('AddMessage'))).toBe(false);

    release();
    await waitFor(() => expect(chipOf('Page example.com/article')).toHaveAttribute('data-status', 'completed'));
    // The page's icon is at another host: never fetched, a link icon instead (docs/security.md).
    expect(container.querySelector('.attachment-chip img')).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove Page example.com/article' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
    expect(uploads()).toEqual(['https://example.com/article']);
  });

  it('validates the address: required, valid, not already added (unless it failed), at most five', async () => {
    const release = holdUploads();
    await renderChat();

    let field = await attach('');
    expect(field).toBeInvalid();
    expect(field).toHaveAccessibleDescription('Enter the address of a web page');
    expect(screen.getByText('Enter the address of a web page')).toBeInTheDocument();
    field = await attach('not a url');
    expect(await screen.findByText('Enter a valid web address starting with http:// or https://')).toBeInTheDocument();
    await attach('ftp://example.com/file');
    expect(await screen.findByText('Enter a valid web address starting with http:// or https://')).toBeInTheDocument();
    // Typing clears the message.
    await userEvent.type(field, 'x');
    expect(screen.queryByText('Enter a valid web address starting with http:// or https://')).toBeNull();

    await attach('https://example.com/one');
    // Loading: the same page (the fragment aside) is refused.
    await attach('https://example.com/one#intro');
    expect(await screen.findByText('This web page has already been added')).toBeInTheDocument();
    release();
    await waitFor(() => expect(chipOf('Page example.com/one')).toHaveAttribute('data-status', 'completed'));
    // Completed: still refused.
    await attach('https://example.com/one');
    expect(await screen.findByText('This web page has already been added')).toBeInTheDocument();

    for (const path of ['two', 'three', 'four', 'five']) await attach(`https://example.org/${path}`);
    await waitFor(() => expect(chips()).toHaveLength(5));
    await attach('https://example.org/six');
    expect(await screen.findByText('A message can carry at most 5 attachments')).toBeInTheDocument();
    expect(chips()).toHaveLength(5);
    expect(uploads()).toHaveLength(5);
  });

  it("shows the server's refusal with Retry and Remove; Retry reads the page again", async () => {
    refuseOnce.add('https://intranet.example.com/');
    await renderChat();
    await attach('https://intranet.example.com/');

    const chip = await waitFor(() => {
      const c = chipOf('https://intranet.example.com/');
      expect(c).toHaveAttribute('data-status', 'error');
      return c;
    });
    expect(within(chip).getByText(REFUSAL)).toBeInTheDocument();
    expect(within(chip).getByRole('button', { name: 'Remove https://intranet.example.com/' })).toBeEnabled();
    // An item in error does not hold the message back.
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'hi');
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();

    await userEvent.click(within(chip).getByRole('button', { name: 'Read https://intranet.example.com/ again' }));
    await waitFor(() => expect(chipOf('Page intranet.example.com/')).toHaveAttribute('data-status', 'completed'));
    expect(screen.queryByText(REFUSAL)).toBeNull();
    expect(chips()).toHaveLength(1);
    expect(uploads()).toEqual(['https://intranet.example.com/', 'https://intranet.example.com/']);
  });

  it('lets a page that failed be added again: it is read again in its own chip', async () => {
    refuseOnce.add('https://example.net/');
    await renderChat();
    await attach('https://example.net/');
    await waitFor(() => expect(chipOf('https://example.net/')).toHaveAttribute('data-status', 'error'));

    await attach('example.net');
    await waitFor(() => expect(chipOf('Page example.net/')).toHaveAttribute('data-status', 'completed'));
    expect(screen.queryByText('This web page has already been added')).toBeNull();
    expect(chips()).toHaveLength(1);
  });

  it('removes a chip, also while its page is being read', async () => {
    const release = holdUploads();
    await renderChat();
    await attach('https://example.com/slow');
    await userEvent.click(screen.getByRole('button', { name: 'Remove https://example.com/slow' }));
    expect(chips()).toHaveLength(0);
    release();
    // The answer of the aborted read brings nothing back: once a later page has been read, the list
    // holds that page alone.
    await attach('https://example.com/fast');
    await waitFor(() => expect(chipOf('Page example.com/fast')).toHaveAttribute('data-status', 'completed'));
    expect(chips()).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Remove Page example.com/fast' }));
    expect(screen.queryByRole('list', { name: 'Attachments' })).toBeNull();
  });

  it('sends the ids of the completed pages only and clears the chips', async () => {
    refuseOnce.add('https://example.com/refused');
    await renderChat();
    await attach('https://example.com/a');
    await attach('https://example.com/refused');
    await attach('https://example.org/b');
    await waitFor(() => expect(chips().map((c) => c.getAttribute('data-status')).sort()).toEqual(['completed', 'completed', 'error']));

    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Compare them{Enter}');
    await screen.findByText('Read it.');
    const body = JSON.parse(server.requests.find((r) => r.url.includes('AddMessage'))!.body) as { chatMediaIds: string[]; inputMessage: string };
    expect(body.inputMessage).toBe('Compare them');
    expect(body.chatMediaIds).toEqual([issued.get('https://example.com/a'), issued.get('https://example.org/b')]);
    expect(issued.has('https://example.com/refused')).toBe(false);
    expect(chips()).toHaveLength(0);
    // The sent message shows what it carried, each page a link to itself.
    const sent = screen.getByRole('list', { name: 'Attached to this message' });
    expect(within(sent).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['https://example.com/a', 'https://example.org/b']);
  });

  it('reads a link dropped on the chat, saying so while it is dragged over', async () => {
    await renderChat();
    const view = document.querySelector('.chat-view')!;
    const link = (url: string) => ({
      types: ['text/uri-list', 'text/plain'],
      getData: (type: string) => (type === 'text/uri-list' ? `# dragged\r\n${url}` : url),
      dropEffect: 'none',
    });
    fireEvent.dragEnter(view, { dataTransfer: link('https://example.com/dropped') });
    expect(screen.getByRole('status')).toHaveTextContent('drag and drop to read webpage');
    fireEvent.drop(view, { dataTransfer: link('https://example.com/dropped') });
    expect(screen.queryByText('drag and drop to read webpage')).toBeNull();
    await waitFor(() => expect(chipOf('Page example.com/dropped')).toHaveAttribute('data-status', 'completed'));

    // The same page dropped again is refused, and told.
    fireEvent.drop(view, { dataTransfer: link('https://example.com/dropped') });
    expect(await screen.findByText('This web page has already been added')).toBeTruthy();
    expect(chips()).toHaveLength(1);

    // Files and plain text are not links: no overlay, left to the browser.
    fireEvent.dragEnter(view, { dataTransfer: { types: ['Files'], getData: () => '' } });
    expect(screen.queryByText('drag and drop to read webpage')).toBeNull();
  });

  it('asks a visitor to sign in instead of reading the page', async () => {
    const { store } = await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: null });
    await attach('https://example.com/a');
    expect(store.get(loginDialogAtom)).toEqual({ open: true, notice: 'chat.notLoginTip' });
    expect(uploads()).toEqual([]);
    expect(chips()).toHaveLength(0);
  });

  it('uses a modal on mobile web', async () => {
    await renderChat({ isH5: true });
    await userEvent.click(screen.getByRole('button', { name: 'Attach a web page' }));
    const dialog = await screen.findByRole('dialog', { name: 'Attach a web page' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Web page address' }), 'https://example.com/m');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(chipOf('Page example.com/m')).toHaveAttribute('data-status', 'completed'));
  });

});

/**
 * The browser's active tab. The fake browser keeps tabs but cannot make one of them active (it
 * activates only a duplicate it never lists), so its tabs.query answers this tab, and the tests
 * fire its tab events as Chrome would.
 */
let activeTab: Browser.tabs.Tab | undefined;
let tabIds = 10;

function tabOf(url: string, title: string): Browser.tabs.Tab {
  return { id: ++tabIds, windowId: 1, index: 0, url, title, active: true, status: 'complete' } as Browser.tabs.Tab;
}

/** The user switches to a tab showing `url`. */
async function activateTab(url: string, title: string): Promise<void> {
  activeTab = tabOf(url, title);
  await fakeBrowser.tabs.onActivated.trigger({ tabId: activeTab.id!, windowId: activeTab.windowId });
}

/** The active tab's page changes its title. */
async function retitleActiveTab(title: string): Promise<void> {
  activeTab = { ...activeTab!, title };
  await fakeBrowser.tabs.onUpdated.trigger(activeTab.id!, { title }, activeTab);
}

/**
 * A members-only article as the signed-in user sees it in the tab (a server fetching the address would
 * not). Its script renamed it since the tab's title was last reported.
 */
const ARTICLE_HTML = `<!doctype html><html><head><base href="https://example.com/news/today"><title>Otters at dawn</title>
<link rel="icon" href="/favicon.png"></head><body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Otters at dawn</h1><p>Members only: sea otters hold hands while they sleep, so that the current does not carry them apart.</p>
<p>They also keep a favourite stone in a pouch of loose skin under the forearm, and use it to crack open shellfish.</p>
<p>Groups of resting otters are called rafts; a raft may count more than a hundred animals.</p></article>
<footer>© Example</footer></body></html>`;

/**
 * The tab reader (entrypoints/tab-reader.ts) run on `html`, as executeScript answers it from the tab;
 * the look at the document's type first (a PDF at an address without .pdf) answers an HTML page's.
 */
function readerAnswers(html: string) {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return vi.spyOn(fakeBrowser.scripting, 'executeScript').mockImplementation((async (injection: Browser.scripting.ScriptInjection<unknown[], unknown>) => {
    if ('func' in injection && injection.func) return [{ frameId: 0, documentId: 'd1', result: 'text/html' }];
    expect(injection).toEqual({ target: { tabId: activeTab!.id }, files: ['/tab-reader.js'] });
    // The reader answers the address of the tab's document (a parsed one has the test page's).
    return [{ frameId: 0, documentId: 'd1', result: { ...readDocument(doc), url: activeTab!.url } }];
  }) as unknown as typeof fakeBrowser.scripting.executeScript);
}

const mediaUploads = () => server.requests.filter((r) => r.url.includes('AddChatMedia'));

describe('unreadableReason', () => {
  it('lets web pages be read, not the browser\'s own pages, its extension stores or other schemes', () => {
    expect(unreadableReason('https://example.com/a')).toBeNull();
    expect(unreadableReason('http://localhost:3000/')).toBeNull();
    for (const url of ['chrome://extensions/', 'edge://settings', 'about:blank', 'chrome-extension://abc/sidepanel.html', 'view-source:https://example.com/']) {
      expect(unreadableReason(url), url).toBe('browserPage');
    }
    for (const url of ['https://chromewebstore.google.com/detail/x/abc', 'https://chrome.google.com/webstore/detail/abc', 'https://microsoftedge.microsoft.com/addons/detail/abc']) {
      expect(unreadableReason(url), url).toBe('storePage');
    }
    expect(unreadableReason('https://chrome.google.com/search')).toBeNull();
    for (const url of ['file:///home/a.html', 'data:text/html,hi', 'not a url']) expect(unreadableReason(url), url).toBe('notWebPage');
  });
});

describe('side panel: Read this page', () => {
  beforeEach(() => {
    activeTab = undefined;
    vi.spyOn(fakeBrowser.tabs, 'query').mockImplementation(async (info: Browser.tabs.QueryInfo) => {
      expect(info).toEqual({ active: true, lastFocusedWindow: true });
      return activeTab ? [activeTab] : [];
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('reads the active tab in the tab itself (what a signed-in user sees) and uploads it as Markdown', async () => {
    await activateTab('https://example.com/news/today#comments', 'Today’s news — Example');
    const reader = readerAnswers(ARTICLE_HTML);
    const release = holdUploads();
    await renderChat({ isExtension: true });
    const button = await screen.findByRole('button', { name: 'Read this page: Today’s news — Example' });
    expect(button).toHaveTextContent('Today’s news — Example');
    await userEvent.hover(button);
    expect(await screen.findByText(/Reads the page in this tab as you see it/)).toBeInTheDocument();

    await userEvent.click(button);
    // Named by the page's own title once read, while it uploads.
    const loading = await waitFor(() => chipOf('Otters at dawn'));
    expect(loading).toHaveAttribute('data-status', 'loading');
    expect(within(loading).getByLabelText('Reading the page…')).toBeInTheDocument();
    release();
    await waitFor(() => expect(chipOf('Otters at dawn')).toHaveAttribute('data-status', 'completed'));
    // Once to see the document's type, once to read it.
    expect(reader.mock.calls.filter(([injection]) => 'files' in injection)).toHaveLength(1);

    // The server was handed the page the tab showed; it did not fetch the address itself.
    expect(uploads()).toEqual([]);
    const [upload] = mediaUploads();
    const form = await formOf(upload);
    expect(fieldsOf(form)).toEqual({ mediaType: 'html', pageTitle: 'Otters at dawn', pageUrl: 'https://example.com/news/today', aiModelId: 'basic' });
    const page = form.get('pageFile') as File;
    expect([page.name, page.type]).toEqual(['page.md', 'text/markdown']);
    const markdown = await page.text();
    expect(markdown).toContain('Members only: sea otters hold hands while they sleep');
    expect(markdown).not.toContain('About');
    // Its own icon is at another host: not fetched.
    expect(chipOf('Otters at dawn').querySelector('img')).toBeNull();
    // Attached: no second offer of the same page.
    expect(screen.queryByRole('button', { name: /Read this page/ })).toBeNull();

    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Why?{Enter}');
    await screen.findByText('Read it.');
    const body = JSON.parse(server.requests.find((r) => r.url.includes('AddMessage'))!.body) as { chatMediaIds: string[] };
    expect(body.chatMediaIds).toEqual([expect.stringMatching(/^tab-media-/)]);
  });

  it('marks the chip failed when the tab cannot be read (Retry reads it again), or has no text', async () => {
    await activateTab('https://example.org/app', 'App');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const reader = vi.spyOn(fakeBrowser.scripting, 'executeScript').mockRejectedValueOnce(new Error('Cannot access contents of the page.'));
    await renderChat({ isExtension: true });
    await userEvent.click(await screen.findByRole('button', { name: 'Read this page: App' }));
    const chip = await waitFor(() => {
      const c = chipOf('App');
      expect(c).toHaveAttribute('data-status', 'error');
      return c;
    });
    expect(within(chip).getByText('This page could not be read. Reload it and try again.')).toBeInTheDocument();
    expect(warn).toHaveBeenCalledWith('reading the tab failed', expect.any(Error));
    expect(mediaUploads()).toHaveLength(0);

    // Read again: this time the page answers, but with nothing to read.
    reader.mockRestore();
    readerAnswers('<html><head><title>App</title></head><body><div id="root"></div></body></html>');
    await userEvent.click(within(chip).getByRole('button', { name: 'Read App again' }));
    await waitFor(() => expect(within(chipOf('App')).getByText('No readable text was found on this page')).toBeInTheDocument());
    expect(mediaUploads()).toHaveLength(0);
  });

  it('says how to allow file access when the PDF on this computer may not be read, and uploads nothing', async () => {
    await activateTab('file:///home/ada/otter-notes.pdf', 'otter-notes.pdf');
    const access = vi.spyOn(fakeBrowser.extension, 'isAllowedFileSchemeAccess').mockResolvedValue(false);
    // A model that reads PDFs (the file's own one reads no files).
    const reader = testModel('basic', 0, { modelMap: { isImage: false, fileTypes: ['pdf'] } });
    server.handle((req, res) => (req.url.includes('/api/Chat/GetModelListAll') ? sendEnvelope(res, { Code: 10000, Data: [reader] }) : handler(req, res)));
    await renderChat({ isExtension: true });
    await userEvent.click(await screen.findByRole('button', { name: 'Read this page: otter-notes.pdf' }));
    await waitFor(() => expect(within(chipOf('otter-notes.pdf')).getByText(/turn on "Allow access to file URLs", then try again/)).toBeInTheDocument());
    expect(chipOf('otter-notes.pdf')).toHaveAttribute('data-status', 'error');
    expect(access).toHaveBeenCalled();
    expect(mediaUploads()).toHaveLength(0);
  });

  it('offers no "Read this page" outside the extension, even beside an http(s) tab', async () => {
    await activateTab('https://example.com/news/today', 'Today’s news — Example');
    await renderChat();
    // The composer is there; the button is not, and nothing would add it later (the web page has no tabs).
    await screen.findByRole('button', { name: 'Attach a web page' });
    expect(screen.queryByRole('button', { name: /Read this page/ })).toBeNull();
  });

  it('follows tab switches and title changes, and says why a chrome:// tab cannot be read', async () => {
    await activateTab('chrome://extensions/', 'Extensions');
    await renderChat({ isExtension: true });
    const blocked = await screen.findByRole('button', { name: 'Read this page: Extensions' });
    expect(blocked).toBeDisabled();
    expect(blocked).toHaveAccessibleDescription("The browser's own pages cannot be read or captured");

    await act(() => activateTab('https://example.org/', 'Example Org'));
    expect(await screen.findByRole('button', { name: 'Read this page: Example Org' })).toBeEnabled();

    await act(() => retitleActiveTab('Example Org — renamed'));
    expect(await screen.findByRole('button', { name: 'Read this page: Example Org — renamed' })).toBeInTheDocument();

    await act(() => activateTab('https://chromewebstore.google.com/detail/abc', 'Chrome Web Store'));
    const store = await screen.findByRole('button', { name: 'Read this page: Chrome Web Store' });
    expect(store).toBeDisabled();
    expect(store).toHaveAccessibleDescription('The extension store does not let extensions read or capture its pages');
  });

  it('useCurrentTab stops listening when unmounted', async () => {
    await activateTab('https://example.com/', 'Example');
    function Probe() {
      const tab = useCurrentTab(extensionTabs);
      return <span data-testid="tab">{tab ? `${tab.title} ${tab.url}` : 'none'}</span>;
    }
    const { unmount } = render(<Probe />);
    await waitFor(() => expect(screen.getByTestId('tab')).toHaveTextContent('Example https://example.com/'));
    const events = fakeBrowser.tabs as unknown as Record<'onActivated' | 'onUpdated', { hasListeners(): boolean }>;
    expect(events.onActivated.hasListeners()).toBe(true);
    expect(events.onUpdated.hasListeners()).toBe(true);
    unmount();
    expect(events.onActivated.hasListeners()).toBe(false);
    expect(events.onUpdated.hasListeners()).toBe(false);
  });
});
