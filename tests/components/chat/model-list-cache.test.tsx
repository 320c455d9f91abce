import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../components/app-shell/app-providers.tsx';
import { createQueryClient } from '../../../components/app-shell/query-client.ts';
import { ChatView } from '../../../components/chat/chat-view.tsx';
import { modelListQuery } from '../../../shared/api/chat.ts';
import { authActionAtom } from '../../../shared/atoms/auth.ts';
import { pendingChatActionAtom } from '../../../shared/atoms/pending-action.ts';
import type { ModelListItem } from '../../../shared/contracts/model.ts';
import type { PendingActionEnvelope } from '../../../shared/contracts/selection-action.ts';
import { answer, answerChat, fakeApi, serveTheseTests, startFreshClient } from '../../helpers/fake-api.ts';
import { createGate } from '../../helpers/http-server.ts';
import { testModel } from '../../helpers/models.ts';
import { testUser } from '../../helpers/render-app.tsx';

/**
 * The last model list is kept (per server, account and plan level) and a chat starts from it: the
 * side panel opened by the selection toolbar sends at once instead of waiting for the list; the list
 * asked for beside it replaces it when the server answers.
 */
let models: ModelListItem[] = [];
/** While held, GetModelListAll waits until the test releases it. */
const listGate = createGate();

const server = serveTheseTests(
  fakeApi({
    '/api/Chat/GetModelListAll': async (req, res, url) => {
      await listGate.wait();
      answer(models)(req, res, url);
    },
    '/api/Chat/AddMessage': answerChat('Explained.'),
  }),
);
beforeEach(() => listGate.reset());

const explain: PendingActionEnvelope = {
  id: 'action-1',
  windowId: 1,
  createdAt: Date.now(),
  action: { kind: 'tool', quickFunctionId: 'qf-explain', name: 'Explain', icon: '', selection: { text: 'Sea otters eat urchins.', title: 'Otters', url: 'https://example.com/otters' } },
};

const requestsTo = (path: string) => server.requests.filter((r) => r.url.startsWith(path));
const sentModels = () => requestsTo('/api/Chat/AddMessage').map((r) => (JSON.parse(r.body) as { aiModelId: string }).aiModelId);

type I18n = Awaited<ReturnType<typeof startFreshClient>>;

/** An earlier page of `token` (null: a visitor) was given `list`: it is kept as the server answered it. */
async function earlierPage(token: string | null, list: ModelListItem[]) {
  const store = createStore();
  await store.set(authActionAtom, token ? { type: 'login', token, userInfo: testUser } : { type: 'logout' });
  models = list;
  await createQueryClient().fetchQuery(modelListQuery(token !== null, 0));
}

/** A page that just opened (a query cache of its own, as a side panel's) for `token`, with `pending` waiting for it. */
async function openChat(i18n: I18n, token: string | null, pending: PendingActionEnvelope | null = null) {
  const store = createStore();
  await store.set(authActionAtom, token ? { type: 'login', token, userInfo: testUser } : { type: 'logout' });
  store.set(pendingChatActionAtom, pending);
  const platform = { isExtension: false, scene: 'web', isH5: true, standalone: false, tabs: null } as const;
  render(
    <AppProviders store={store} queryClient={createQueryClient()} i18n={i18n} platform={platform}>
      <ChatView sessionId={undefined} onSessionCreated={vi.fn()} />
    </AppProviders>,
  );
  return screen.findByTestId('model-picker');
}

describe('the kept model list', () => {
  it('renders the first screen and runs a waiting action before the server answers; the fresh list replaces it', async () => {
    const i18n = await startFreshClient(server.url);
    await earlierPage('token-a', [testModel('kept', 0)]);
    const release = listGate.hold();
    models = [testModel('fresh', 0)];
    const picker = await openChat(i18n, 'token-a', explain);
    expect(picker).toHaveTextContent('kept');
    // The action went with the kept list's model while the list was still being asked for.
    await waitFor(() => expect(sentModels()).toEqual(['kept']));
    expect(await screen.findByText('Explained.')).toBeInTheDocument();
    expect(requestsTo('/api/Chat/GetModelListAll')).toHaveLength(2);
    release();
    await waitFor(() => expect(picker).toHaveTextContent('fresh'));
    expect(picker).not.toHaveTextContent('kept');
  });

  it('gives way to the server when the kept model is gone: the next message goes with the fresh list', async () => {
    const i18n = await startFreshClient(server.url);
    await earlierPage('token-a', [testModel('retired', 0)]);
    const release = listGate.hold();
    models = [testModel('current', 0)];
    const picker = await openChat(i18n, 'token-a');
    expect(picker).toHaveTextContent('retired');
    release();
    await waitFor(() => expect(picker).toHaveTextContent('current'));
    await userEvent.type(screen.getByRole('textbox'), 'hello{Enter}');
    await waitFor(() => expect(sentModels()).toEqual(['current']));
  });

  it('is never shown to another account or to a visitor: they wait for their own list', async () => {
    const i18n = await startFreshClient(server.url);
    await earlierPage('token-a', [testModel('alices', 0)]);
    const release = listGate.hold();
    models = [testModel('bobs', 0)];
    const picker = await openChat(i18n, 'token-b', explain);
    await waitFor(() => expect(requestsTo('/api/Chat/GetModelListAll')).toHaveLength(2));
    expect(picker).not.toHaveTextContent('alices');
    expect(sentModels()).toEqual([]);
    release();
    // The action waited for this account's own list, and went with it.
    await waitFor(() => expect(sentModels()).toEqual(['bobs']));
    expect(picker).toHaveTextContent('bobs');
  });

  it('keeps what a signed-in account was given from a visitor', async () => {
    const i18n = await startFreshClient(server.url);
    await earlierPage('token-a', [testModel('alices', 0)]);
    const release = listGate.hold();
    models = [testModel('public', 0)];
    const picker = await openChat(i18n, null);
    await waitFor(() => expect(requestsTo('/api/Chat/GetModelListAll')).toHaveLength(2));
    expect(picker).not.toHaveTextContent('alices');
    release();
    await waitFor(() => expect(picker).toHaveTextContent('public'));
  });
});
