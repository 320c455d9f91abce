import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRouter } from '../../../components/app-shell/router.tsx';
import { AppRoutes } from '../../../components/layout/app-routes.tsx';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

const server = serveTheseTests(
  fakeApi({
    '/api/Chat/GetModelListAll': answer([testModel('basic', 0)]),
    '/api/Browser/AddBrowser': answer(),
    // As the server answers a call without a login.
    '/api/Chat/GetChatMessageListBySelfSessionId': (_req, res) => sendEnvelope(res, { Code: 10402, Msg: 'Please log in first.', Data: null }),
  }),
);

async function visit(path: string) {
  window.history.replaceState(null, '', path);
  await renderInApp(
    <AppRouter platform={{ isExtension: false }}>
      <AppRoutes />
    </AppRouter>,
    { apiBase: server.url, user: null },
  );
}

describe('a visitor on an address of one segment', () => {
  it('that cannot be a chat sees the not-found page, not a request to sign in', async () => {
    await visit('/pricingg');
    expect(await screen.findByTestId('page-not-found')).toHaveTextContent('Page not found');
    expect(screen.queryByText('Sign in to start chatting.')).toBeNull();
  });

  it("that is a chat's address is asked to sign in: the chat may be theirs", async () => {
    await visit('/0b7e3f5a-6c1d-4a8e-9f2b-3c4d5e6f7a8b');
    expect(await screen.findByText('Sign in to start chatting.')).toBeInTheDocument();
    expect(screen.queryByTestId('page-not-found')).toBeNull();
    // Not the server's refusal of a call made without a login.
    expect(screen.queryByText('Please log in first.')).toBeNull();
    expect(server.requests.some((r) => r.url.startsWith('/api/Chat/GetChatMessageListBySelfSessionId'))).toBe(false);
  });
});
