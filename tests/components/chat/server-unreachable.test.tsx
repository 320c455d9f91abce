import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatView } from '../../../components/chat/chat-view.tsx';
import { LoginDialog } from '../../../components/login/login-dialog.tsx';
import { setApiBase } from '../../../shared/api/request.ts';
import { openLoginDialogAtom } from '../../../shared/atoms/login-dialog.ts';
import { apiBaseFor, serverUrlPersisted } from '../../../shared/platform/server-url.ts';
import { peekPersisted, watchPersisted, writePersisted } from '../../../shared/storage/active.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { startTestServer } from '../../helpers/http-server.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

const server = serveTheseTests(fakeApi({ '/api/Chat/GetModelListAll': answer([testModel('auto', 0), testModel('basic', 0, { name: 'Basic' })]) }));

let stopWatch = () => {};
afterEach(() => stopWatch());

/** A server address nothing listens on any more (a real refused connection on loopback). */
async function goneServer(): Promise<string> {
  const gone = await startTestServer();
  await gone.close();
  return gone.url;
}

describe('a first run against a server that cannot be reached', () => {
  it('names the server, and in the extension changes it right there; the chat then loads', async () => {
    const gone = await goneServer();
    await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: gone, user: null, platform: { isExtension: true, scene: 'extension' } });
    // The extension's start-up points the API at the stored server, and again when it changes (components/app-shell/start.ts).
    await writePersisted(serverUrlPersisted, gone);
    stopWatch = watchPersisted(serverUrlPersisted, (chosen) => setApiBase(apiBaseFor(true, chosen)));

    const notice = await screen.findByTestId('server-unreachable', {}, { timeout: 5_000 });
    expect(notice).toHaveTextContent('The server cannot be reached');
    expect(notice).toHaveTextContent(`Cannot reach the server at ${gone}.`);
    expect(notice).not.toHaveTextContent('network error');

    await userEvent.click(within(notice).getByRole('button', { name: 'Change server' }));
    const field = within(notice).getByRole('textbox', { name: 'Server address' });
    expect(field).toHaveValue(gone);
    await userEvent.clear(field);
    await userEvent.type(field, 'ftp://nope');
    await userEvent.click(within(notice).getByRole('button', { name: 'Connect' }));
    expect(notice).toHaveTextContent('Enter an address that starts with http:// or https://');

    await userEvent.clear(field);
    await userEvent.type(field, `${server.url}/some/path`);
    await userEvent.click(within(notice).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(screen.queryByTestId('server-unreachable')).toBeNull());
    expect(peekPersisted(serverUrlPersisted)).toBe(server.url);
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('Auto'));
  });

  it('offers Try again on the web, where the address is the page itself', async () => {
    const gone = await goneServer();
    await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: gone, user: null });
    const notice = await screen.findByTestId('server-unreachable', {}, { timeout: 5_000 });
    expect(within(notice).queryByRole('button', { name: 'Change server' })).toBeNull();
    setApiBase(server.url);
    await userEvent.click(within(notice).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByTestId('server-unreachable')).toBeNull());
  });
});

describe('the sign-in sheet against a server that cannot be reached', () => {
  it('names the server and offers to change it, instead of "network error"', async () => {
    const gone = await goneServer();
    const { store } = await renderInApp(<LoginDialog onLoggedIn={vi.fn()} />, { apiBase: gone, user: null, platform: { isExtension: true, scene: 'extension', isH5: true } });
    store.set(openLoginDialogAtom);
    const notice = await screen.findByTestId('server-unreachable', {}, { timeout: 8_000 });
    expect(notice).toHaveTextContent(`Cannot reach the server at ${gone}.`);
    expect(within(notice).getByRole('button', { name: 'Change server' })).toBeInTheDocument();
    expect(screen.queryByText('network error')).toBeNull();
  });
});
