import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppRouter } from '../../../components/app-shell/router.tsx';
import { AppRoutes } from '../../../components/layout/app-routes.tsx';
import { WIDE_MIN_WIDTH } from '../../../shared/platform/platform.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

const server = serveTheseTests(
  fakeApi({
    '/api/Chat/GetModelListAll': answer([testModel('basic', 0)]),
    '/api/Browser/AddBrowser': answer(),
    '/api/Chat/GetChatSessionListBySelf': (_req, res) => sendEnvelope(res, { Code: 10000, Data: { list: [], total: 0 } }),
  }),
);

/**
 * A window whose width the test sets: matchMedia answers (max-width: N px) queries from it and tells
 * its listeners when a resize crosses them, as the browser does.
 */
let width = 1400;
const lists = new Set<{ query: string; max: number; matches: boolean; listeners: Set<(event: { matches: boolean }) => void> }>();
const realMatchMedia = window.matchMedia;
function resize(to: number) {
  width = to;
  for (const list of lists) {
    const matches = width <= list.max;
    if (matches === list.matches) continue;
    list.matches = matches;
    for (const listener of list.listeners) listener({ matches });
  }
}
beforeEach(() => {
  width = 1400;
  lists.clear();
  window.matchMedia = ((query: string) => {
    const max = Number(/max-width:\s*([\d.]+)px/.exec(query)?.[1] ?? Number.POSITIVE_INFINITY);
    const list = { query, max, matches: Number.isFinite(max) && width <= max, listeners: new Set<(event: { matches: boolean }) => void>() };
    lists.add(list);
    return {
      get matches() {
        return list.matches;
      },
      media: query,
      onchange: null,
      addEventListener: (_type: string, listener: (event: { matches: boolean }) => void) => list.listeners.add(listener),
      removeEventListener: (_type: string, listener: (event: { matches: boolean }) => void) => list.listeners.delete(listener),
      addListener: (listener: (event: { matches: boolean }) => void) => list.listeners.add(listener),
      removeListener: (listener: (event: { matches: boolean }) => void) => list.listeners.delete(listener),
      dispatchEvent: () => false,
    };
  }) as unknown as typeof window.matchMedia;
});
afterEach(() => {
  window.matchMedia = realMatchMedia;
});

async function openChat() {
  window.history.replaceState(null, '', '/');
  await renderInApp(
    <AppRouter platform={{ isExtension: false }}>
      <AppRoutes />
    </AppRouter>,
    { apiBase: server.url, user: testUser },
  );
  return screen.findByRole('navigation', { name: 'Chat history' });
}

describe('the 1260 px wide-layout breakpoint', () => {
  it('shows the history sidebar open from 1260 px up, collapsed below, and follows a resize across it', async () => {
    width = WIDE_MIN_WIDTH;
    const sidebar = await openChat();
    expect(sidebar).not.toHaveAttribute('data-collapsed');
    expect(sidebar.style.width).toBe('260px');

    act(() => resize(WIDE_MIN_WIDTH - 1));
    await waitFor(() => expect(sidebar).toHaveAttribute('data-collapsed'));
    expect(sidebar.style.width).toBe('60px');
    act(() => resize(1600));
    await waitFor(() => expect(sidebar).not.toHaveAttribute('data-collapsed'));
  });

  it('starts collapsed on a desktop window narrower than 1260 px', async () => {
    width = 1100;
    const sidebar = await openChat();
    expect(sidebar).toHaveAttribute('data-collapsed');
  });
});
