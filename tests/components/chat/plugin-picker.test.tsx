import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ChatView } from '../../../components/chat/chat-view.tsx';
import { getPluginList } from '../../../shared/api/plugin.ts';
import { chatPluginIdsAtom, chatPluginsPersisted } from '../../../shared/atoms/plugin.ts';
import type { Plugin } from '../../../shared/contracts/plugin.ts';
import { peekPersisted } from '../../../shared/storage/active.ts';
import { answer, answerChat, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

const plugin = (pluginId: string, pluginType: number, extra: Partial<Plugin> = {}): Plugin => ({
  pluginId,
  pluginName: pluginId,
  description: `${pluginId} description`,
  pluginType,
  toolName: pluginId,
  icon: '',
  pointsCost: 1,
  available: true,
  ...extra,
});

const PLUGINS: Plugin[] = [
  plugin('web_search', 2),
  plugin('page_summary', 1, { pluginName: 'Page summary' }),
  plugin('read_url', 2, { pointsCost: 0 }),
  plugin('generate_image', 2, { available: false, pointsCost: 10 }),
  plugin('translator', 2, { pluginName: 'Translator', description: 'Translates text', toolName: 'translate' }),
];

const api = fakeApi({
  '/api/Chat/GetModelListAll': answer([testModel('basic', 1)]),
  '/api/Plugin/GetPluginListAll': answer(PLUGINS),
  '/api/Chat/AddMessage': answerChat('Done.', { ChatSessionId: 's-new' }),
});
const server = serveTheseTests(api);

const addMessageBody = () => JSON.parse(server.requests.find((r) => r.url.includes('AddMessage'))!.body) as { pluginIds?: string[] };

async function openPicker() {
  await userEvent.click(await screen.findByRole('button', { name: 'Plugins' }));
  return screen.findByRole('group', { name: 'Plugins' });
}

describe('getPluginList', () => {
  it("asks for the scene's plugins and keeps only the function plugins", async () => {
    const list = await getPluginList('h5');
    expect(list.map((p) => p.pluginId)).toEqual(['web_search', 'read_url', 'generate_image', 'translator']);
    expect(server.requests[0].url).toBe('/api/Plugin/GetPluginListAll?scene=h5');
  });
});

describe('PluginPicker in the composer', () => {
  it('lists the function plugins with the unavailable one disabled and explained, and sends the ones switched on', async () => {
    const { store } = await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, {
      apiBase: server.url,
      user: testUser,
      platform: { isExtension: true, scene: 'extension' },
    });
    const group = await openPicker();
    expect(server.requests.find((r) => r.url.startsWith('/api/Plugin/GetPluginListAll'))!.url).toBe('/api/Plugin/GetPluginListAll?scene=extension');

    const boxes = within(group).getAllByRole<HTMLInputElement>('checkbox');
    // Built-in tools are named in the UI's language; others keep the server's name. No page plugin.
    expect(boxes.map((b) => b.labels?.[0]?.textContent)).toEqual([
      'Web search',
      'Read web page',
      'Image generation',
      'Translator',
    ]);
    expect(within(group).queryByText('Page summary')).toBeNull();
    const image = within(group).getByRole('checkbox', { name: 'Image generation' });
    expect(image).toBeDisabled();
    expect(image).toHaveAccessibleDescription(/10 points per use.*Not available: this server is not set up for it/);
    const web = within(group).getByRole('checkbox', { name: 'Web search' });
    expect(web).toHaveAccessibleDescription(/1 point per use/);
    expect(web).toBeEnabled();
    expect(web).not.toBeChecked();

    await userEvent.click(web);
    await userEvent.click(within(group).getByRole('checkbox', { name: 'Translator' }));
    expect(web).toBeChecked();
    expect(store.get(chatPluginIdsAtom)).toEqual(['web_search', 'translator']);
    // Stored for this user.
    expect(peekPersisted(chatPluginsPersisted)).toEqual({ u1: ['web_search', 'translator'] });
    expect(screen.getByRole('button', { name: 'Plugins' })).toHaveAccessibleDescription('Plugins (2 on)');

    await userEvent.click(screen.getByRole('button', { name: 'Plugins' }));
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('basic'));
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'hi{Enter}');
    await screen.findByText('Done.');
    expect(addMessageBody().pluginIds).toEqual(['web_search', 'translator']);
  });

  it('sends only the chosen plugins the server offers as available now', async () => {
    const { store } = await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
    await store.set(chatPluginIdsAtom, ['generate_image', 'gone', 'read_url']);
    const group = await openPicker();
    expect(within(group).getByRole('checkbox', { name: 'Read web page' })).toBeChecked();
    expect(within(group).getByRole('checkbox', { name: 'Image generation' })).not.toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Plugins' }));
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('basic'));
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'hi{Enter}');
    await screen.findByText('Done.');
    expect(addMessageBody().pluginIds).toEqual(['read_url']);
    // The stored choice is kept as it was: an id comes back once the server offers it again.
    expect(store.get(chatPluginIdsAtom)).toEqual(['generate_image', 'gone', 'read_url']);
  });

  it('asks with the web scene on the web page', async () => {
    await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
    await screen.findByRole('button', { name: 'Plugins' });
    await waitFor(() => expect(server.requests.some((r) => r.url === '/api/Plugin/GetPluginListAll?scene=web')).toBe(true));
  });

  it('tells when the list could not be loaded, and loads it again on Retry', async () => {
    let fail = true;
    server.handle((req, res) => {
      if (req.url.startsWith('/api/Plugin/') && fail) return sendEnvelope(res, { Code: 10404, Msg: 'not found' });
      return api(req, res);
    });
    await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
    await userEvent.click(await screen.findByRole('button', { name: 'Plugins' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load the plugins');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    const group = await screen.findByRole('group', { name: 'Plugins' });
    expect(within(group).getAllByRole('checkbox')).toHaveLength(4);
  });

  it('hides the button when the scene has no function plugins', async () => {
    server.handle((req, res) => (req.url.startsWith('/api/Plugin/') ? sendEnvelope(res, { Code: 10000, Data: [PLUGINS[1]] }) : api(req, res)));
    await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(server.requests.some((r) => r.url.startsWith('/api/Plugin/'))).toBe(true));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Plugins' })).toBeNull());
  });

  it('shows no picker to a visitor', async () => {
    await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: null });
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('basic'));
    expect(screen.queryByRole('button', { name: 'Plugins' })).toBeNull();
    expect(server.requests.some((r) => r.url.startsWith('/api/Plugin/'))).toBe(false);
  });
});
