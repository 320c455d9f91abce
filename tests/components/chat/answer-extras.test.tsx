import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatView } from '../../../components/chat/chat-view.tsx';
import { ToolCalls } from '../../../components/chat/tool-calls.tsx';
import type { ChatCitation, ChatMessageItem, ChatToolCall } from '../../../shared/contracts/chat.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { chatData, createGate, endChatStream, openChatStream, sendChatEvent } from '../../helpers/http-server.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

const MODELS = [testModel('basic', 1, { webSearch: true })];

const CITATIONS: ChatCitation[] = [
  { index: 2, title: 'The Rust Book', url: 'https://doc.rust-lang.org/book/' },
  { index: 1, title: 'Rust', url: 'https://www.rust-lang.org/' },
];

const search = (status: ChatToolCall['status'], output = ''): ChatToolCall => ({
  toolCallId: 'call-1',
  toolName: 'web_search',
  input: '{"query":"rust memory safety"}',
  status,
  output,
  images: [],
});

const STORED: ChatMessageItem = {
  chatMessageId: 'm-old',
  chatSessionId: 's1',
  inputMessage: 'Draw a crab',
  outputMessage: 'Here is your crab, see [1].',
  aiModelId: 'basic',
  modelName: 'Basic',
  chatMediaIds: [],
  chatMedias: [],
  citations: [{ index: 1, title: 'Ferris', url: 'https://rustacean.net/' }],
  toolCalls: [
    {
      toolCallId: 'call-9',
      toolName: 'generate_image',
      input: '{"prompt":"a friendly crab"}',
      status: 'completed',
      output: 'One image',
      images: ['/api/Chat/Media/crab.png'],
    },
  ],
  finishReason: 'stop',
  createTime: '2026-01-01T00:00:00.000Z',
  finishTime: '2026-01-01T00:00:05.000Z',
};

/** While held, the answer waits after its first event until the test releases it. */
const answerGate = createGate();

const server = serveTheseTests(
  fakeApi({
    '/api/System/GetSettingListAll': answer([{ settingKey: 'web_search_provider', settingValue: 'fake' }]),
    '/api/Chat/GetModelListAll': answer(MODELS),
    '/api/Plugin/GetPluginListAll': answer([]),
    '/api/Chat/GetChatMessageListBySelfSessionId': answer({ list: [STORED], total: 1 }),
    '/api/Chat/AddMessage': async (req, res) => {
      const body = JSON.parse(req.body) as { inputMessage: string };
      const event = (fields: Parameters<typeof chatData>[0]) => sendChatEvent(res, chatData({ ChatSessionId: 's-new', InputMessage: body.inputMessage, ...fields }));
      openChatStream(res);
      event({ ToolCalls: [search('running')] });
      await answerGate.wait();
      event({ ToolCalls: [search('completed', '1. Rust\n2. The Rust Book')], Citations: CITATIONS });
      event({ OutputMessage: 'Rust is memory safe [1][2]. Index with `v[1]`.' });
      event({ FinishReason: 'stop' });
      endChatStream(res);
    },
  }),
);
beforeEach(() => answerGate.reset());

describe('an answer with web search', () => {
  it('shows the running search, then the answer with linked markers and its sources', async () => {
    const release = answerGate.hold();
    const { container } = await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('basic'));
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Is Rust safe?{Enter}');

    const tools = await screen.findByRole('group', { name: 'Tools used for this answer' });
    const running = await within(tools).findByRole('button', { name: /Searching the web.*rust memory safety.*Running/ });
    expect(running).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByTestId('tool-call')).toHaveAttribute('data-status', 'running');

    release();
    await within(tools).findByRole('button', { name: /^Searched the web/ });
    expect(screen.getByTestId('tool-call')).toHaveAttribute('data-status', 'completed');
    await waitFor(() => expect(container.querySelectorAll('.md-view sup.md-cite a')).toHaveLength(2));
    const markers = [...container.querySelectorAll<HTMLAnchorElement>('.md-view sup.md-cite a')];
    expect(markers.map((a) => [a.textContent, a.href, a.target, a.rel])).toEqual([
      ['1', 'https://www.rust-lang.org/', '_blank', 'noopener noreferrer'],
      ['2', 'https://doc.rust-lang.org/book/', '_blank', 'noopener noreferrer'],
    ]);
    expect(container.querySelector('.md-view code')!.textContent).toBe('v[1]');

    // Sources, numbered as the markers are, each its title (a link) and its site.
    const sources = await screen.findByRole('list', { name: 'Sources' });
    const items = within(sources).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(['1Rustrust-lang.org', '2The Rust Bookdoc.rust-lang.org']);
    const first = within(sources).getByRole('link', { name: 'Source 1: Rust (opens in a new tab)' });
    expect(first).toHaveAttribute('href', 'https://www.rust-lang.org/');
    expect(first).toHaveAttribute('target', '_blank');
    expect(first).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('shows the sources and tool calls of a stored answer, with the generated image', async () => {
    const { container } = await renderInApp(<ChatView sessionId="s1" onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
    const control = await screen.findByRole('button', { name: /^Generated an image.*a friendly crab/ });
    const image = screen.getByRole('img', { name: 'Generated image 1' });
    // A path on the server loads from the API's address.
    expect(image).toHaveAttribute('src', `${server.url}/api/Chat/Media/crab.png`);
    expect(image.closest('a')).toHaveAttribute('target', '_blank');
    await waitFor(() => expect(container.querySelector('.md-view sup.md-cite a')).toHaveAttribute('href', 'https://rustacean.net/'));
    expect(within(await screen.findByRole('list', { name: 'Sources' })).getByRole('link')).toHaveTextContent('Ferris');
    await userEvent.click(control);
    expect(await screen.findByTestId('tool-call-output')).toHaveTextContent('One image');
  });
});

describe('ToolCalls', () => {
  const calls: ChatToolCall[] = [
    { toolCallId: 'a', toolName: 'read_url', input: '{"url":"https://example.com/post"}', status: 'completed', output: 'Title: Post\nBody…', images: [] },
    { toolCallId: 'b', toolName: 'generate_image', input: '{"prompt":"cat"}', status: 'error', output: 'The image service failed', images: [] },
    { toolCallId: 'c', toolName: 'web_search', input: '{"query":"news"}', status: 'running', output: '', images: [] },
    { toolCallId: 'd', toolName: 'lookup_weather', input: 'not json', status: 'completed', output: '', images: ['', 'data:image/png;base64,iVBORw0KGgo='] },
  ];

  it('labels each call by tool and status, and opens on its input and output', async () => {
    await renderInApp(<ToolCalls calls={calls} streaming />, { apiBase: server.url });
    const read = screen.getByRole('button', { name: /^Read a page.*https:\/\/example\.com\/post/ });
    const failed = screen.getByRole('button', { name: /^Generated an image.*cat.*Failed/ });
    screen.getByRole('button', { name: /^Searching the web.*news.*Running/ });
    const other = screen.getByRole('button', { name: /^Used lookup_weather/ });
    expect(screen.getAllByTestId('tool-call').map((el) => el.getAttribute('data-status'))).toEqual(['completed', 'error', 'running', 'completed']);
    // An empty link is not shown; an inline image is, without a link (it cannot be opened as a page).
    const inline = screen.getByRole('img', { name: 'Generated image 1' });
    expect(inline).toHaveAttribute('src', 'data:image/png;base64,iVBORw0KGgo=');
    expect(inline.closest('a')).toBeNull();

    // Collapsed details are not rendered; opening one shows the input (pretty JSON) and the output.
    expect(screen.queryByTestId('tool-call-input')).toBeNull();
    await userEvent.click(read);
    expect(read).toHaveAttribute('aria-expanded', 'true');
    expect(await screen.findByTestId('tool-call-input')).toHaveTextContent('"url": "https://example.com/post"');
    expect(screen.getByTestId('tool-call-output')).toHaveTextContent('Title: Post');
    await userEvent.click(failed);
    await waitFor(() => expect(screen.getAllByTestId('tool-call-output')).toHaveLength(2));
    expect(screen.getAllByTestId('tool-call-output')[1]).toHaveTextContent('The image service failed');
    await userEvent.click(other);
    await waitFor(() => expect(screen.getAllByTestId('tool-call-input')).toHaveLength(3));
    expect(screen.getAllByTestId('tool-call-input')[2]).toHaveTextContent('not json');
    expect(screen.getAllByTestId('tool-call-output')[2]).toHaveTextContent('No output');
  });

  it('opens a picture given as data in the centred pop-up, as a blob revoked 100 ms later', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:tandem/generated');
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    await renderInApp(<ToolCalls calls={calls} streaming={false} />, { apiBase: server.url });
    await userEvent.click(screen.getByRole('button', { name: 'Open generated image 1' }));
    expect(open).toHaveBeenCalledWith('blob:tandem/generated', '_blank', expect.stringMatching(/^popup=yes,width=\d+,height=\d+,left=\d+,top=\d+,resizable=yes,scrollbars=yes,noopener$/));
    await waitFor(() => expect(revoke).toHaveBeenCalledWith('blob:tandem/generated'));
    vi.restoreAllMocks();
  });

  it('shows a call still running in an answer that ended as not finished', async () => {
    await renderInApp(<ToolCalls calls={[calls[2]]} streaming={false} />, { apiBase: server.url });
    screen.getByRole('button', { name: /^Searched the web.*news.*Did not finish/ });
    expect(screen.getByTestId('tool-call')).toHaveAttribute('data-status', 'interrupted');
  });

  it('speaks Chinese', async () => {
    await renderInApp(<ToolCalls calls={calls.slice(0, 3)} streaming />, { apiBase: server.url });
    await setLanguage('zh');
    await screen.findByRole('button', { name: /^已阅读网页/ });
    screen.getByRole('button', { name: /^已生成图片.*失败/ });
    screen.getByRole('button', { name: /^正在联网搜索.*进行中/ });
    expect(screen.getByRole('group', { name: '本次回答使用的工具' })).toBeInTheDocument();
  });
});
