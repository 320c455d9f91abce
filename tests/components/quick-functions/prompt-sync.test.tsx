import { render, screen, waitFor } from '@testing-library/react';
import { createStore } from 'jotai';
import { fakeBrowser } from 'wxt/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../components/app-shell/app-providers.tsx';
import { startPromptPluginRelay } from '../../../components/app-shell/prompt-plugin-relay.ts';
import { watchPromptPluginUpdates } from '../../../components/app-shell/prompt-plugin-sync.ts';
import { createQueryClient } from '../../../components/app-shell/query-client.ts';
import { ChatView } from '../../../components/chat/chat-view.tsx';
import { handleExtensionMessage, type MessageSender } from '../../../entrypoints/background/messages.ts';
import { deleteUserQuickFunction, saveUserQuickFunction } from '../../../shared/api/quick-functions.ts';
import { authActionAtom } from '../../../shared/atoms/auth.ts';
import type { PageBridge } from '../../../shared/messaging/page-bridge.ts';
import { installStorage } from '../../../shared/storage/active.ts';
import { createExtensionStorage } from '../../../shared/storage/extension.ts';
import { answer, fakeApi, serveTheseTests, startFreshClient } from '../../helpers/fake-api.ts';
import { testModel } from '../../helpers/models.ts';
import { testUser } from '../../helpers/render-app.tsx';
import { fakePromptsApi } from './fake-prompts-api.ts';
import { node, TREE } from './fake-quick-functions.ts';

let tree = TREE;
const server = serveTheseTests(
  fakeApi({
    '/api/Chat/GetModelListAll': answer([testModel('basic', 1)]),
    '/api/QuickFunction/GetQuickFunctionListAll2': (req, res, url) => answer(tree)(req, res, url),
  }),
);

const stops: (() => void)[] = [];
afterEach(() => {
  while (stops.length) stops.pop()!();
});

describe('the side panel follows prompt changes made in the web app (updatePromptPlugin)', () => {
  beforeEach(() => {
    tree = TREE;
    fakeBrowser.reset();
  });

  it('refetches the quick functions when the background is told, without a reload', async () => {
    const i18n = await startFreshClient(server.url);
    // The side panel and the background share the extension's storage.
    installStorage(createExtensionStorage());
    const store = createStore();
    await store.set(authActionAtom, { type: 'login', token: 'test-token', userInfo: testUser });
    const queryClient = createQueryClient();
    stops.push(watchPromptPluginUpdates(queryClient));
    render(
      <AppProviders store={store} queryClient={queryClient} i18n={i18n} platform={{ isExtension: true, scene: 'extension', isH5: true, standalone: false, tabs: null }}>
        <ChatView sessionId={undefined} onSessionCreated={vi.fn()} />
      </AppProviders>,
    );
    expect((await screen.findAllByTestId('qf-starter')).map((b) => b.textContent)).toEqual(['💡Explain', '✍️Fix grammar', '🇫🇷Translate to French']);
    const asked = () => server.requests.filter((r) => r.url.includes('GetQuickFunctionListAll2')).length;
    expect(asked()).toBe(1);

    // The user wrote a prompt in the web app; its page sent updatePromptPlugin through the bridge.
    tree = [...TREE, node('own-1', 'My haiku', { userQuickFunctionId: 'own-1', icon: '🌸', pinned: true })];
    const sender: MessageSender = { id: fakeBrowser.runtime.id, tab: { id: 11, windowId: 7, index: 0, active: true } as chrome.tabs.Tab, frameId: 0, url: `${window.location.origin}/prompt_setting`, origin: window.location.origin };
    expect(await handleExtensionMessage('updatePromptPlugin', undefined, sender)).toEqual({ ok: true, result: null });

    await waitFor(() => expect(screen.getAllByTestId('qf-starter').map((b) => b.textContent)).toEqual(['🌸My haiku', '💡Explain', '✍️Fix grammar', '🇫🇷Translate to French']));
    expect(asked()).toBe(2);
  });
});

describe('the web app tells the extension about each change (prompt-plugin relay)', () => {
  function fakeBridge(ready: boolean) {
    const request = vi.fn().mockResolvedValue(null);
    return { bridge: { ready: async () => ready, request, onLoginState: () => () => {}, dispose: () => {} } as unknown as PageBridge, request };
  }

  it('sends updatePromptPlugin once per saved change', async () => {
    const api = fakePromptsApi();
    server.handle(api.handler);
    const { bridge, request } = fakeBridge(true);
    stops.push(startPromptPluginRelay(bridge));
    const saved = await saveUserQuickFunction({ name: 'Haiku', template: 'A haiku about {input}', appliesTo: ['input'] });
    await vi.waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(request).toHaveBeenCalledWith('updatePromptPlugin', undefined);
    await deleteUserQuickFunction(saved.userQuickFunctionId);
    await vi.waitFor(() => expect(request).toHaveBeenCalledTimes(2));
  });

  it('sends nothing without the extension, nor for a change the server refused', async () => {
    const api = fakePromptsApi();
    server.handle(api.handler);
    const absent = fakeBridge(false);
    stops.push(startPromptPluginRelay(absent.bridge, 10));
    await saveUserQuickFunction({ name: 'Haiku', template: 'A haiku', appliesTo: ['input'] });
    stops.pop()!();

    const present = fakeBridge(true);
    stops.push(startPromptPluginRelay(present.bridge));
    await expect(saveUserQuickFunction({ name: '', template: 'x', appliesTo: ['input'] })).rejects.toThrow('Please enter a name for the prompt');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(absent.request).not.toHaveBeenCalled();
    expect(present.request).not.toHaveBeenCalled();
  });
});
