import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { QuickActions } from '../../../components/popup/quick-actions.tsx';
import { tokenAtom } from '../../../shared/atoms/auth.ts';
import { sendEnvelope, startTestServer, type TestServer } from '../../helpers/http-server.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    switch (req.url) {
      case '/api/User/GetUserIntegralByLogin':
        return sendEnvelope(res, {
          Code: 10000,
          Data: [
            { integralType: 2, integralValue: 5, useIntegral: 0 },
            { integralType: 1, integralValue: 1234, useIntegral: 10 },
          ],
        });
      case '/api/User/Logout':
        return sendEnvelope(res, { Code: 10000 });
      default:
        return sendEnvelope(res, { Code: 10404, Msg: 'not found' });
    }
  });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const callbacks = () => ({ onOpenSidePanel: vi.fn().mockResolvedValue(undefined), onOpenWebApp: vi.fn(), onSignIn: vi.fn() });

describe('QuickActions', () => {
  it('offers sign-in when logged out', async () => {
    const cb = callbacks();
    await renderInApp(<QuickActions {...cb} />, { apiBase: server.url });
    expect(screen.getByText('You are not signed in.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(cb.onSignIn).toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Open web app' }));
    expect(cb.onOpenWebApp).toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument();
    expect(server.requests).toEqual([]);
  });

  it('shows the user, the plan and the main points balance', async () => {
    const vip = { ...testUser, vipOrder: { vipOrderId: 'o1', vipPackageLevel: 2, vipPackageName: 'Advanced', endTime: '2027-01-01' } };
    await renderInApp(<QuickActions {...callbacks()} />, { apiBase: server.url, user: vip });
    expect(screen.getByTestId('popup-user-name')).toHaveTextContent('Alice');
    expect(screen.getByTestId('popup-plan')).toHaveTextContent('Advanced');
    await waitFor(() => expect(screen.getByTestId('popup-points')).toHaveTextContent('1234 points'));
  });

  it('shows the user’s picture beside the name, or the initials without one', async () => {
    const path = '/api/Account/GetHeadImg?headImgId=0b8e7a52-57c4-4a0e-9d3f-3b7f0d2a7a11';
    const { unmount } = await renderInApp(<QuickActions {...callbacks()} />, { apiBase: server.url, user: { ...testUser, headImg: path } });
    expect(screen.getByTestId('popup-avatar').querySelector('img')).toHaveAttribute('src', `${server.url}${path}`);
    unmount();
    await renderInApp(<QuickActions {...callbacks()} />, { apiBase: server.url, user: testUser });
    expect(screen.getByTestId('popup-avatar')).toHaveAttribute('data-avatar', 'initials');
    expect(screen.getByTestId('popup-avatar')).toHaveTextContent(/^A$/);
  });

  it("names the free plan 'free version'", async () => {
    await renderInApp(<QuickActions {...callbacks()} />, { apiBase: server.url, user: testUser });
    expect(screen.getByTestId('popup-plan')).toHaveTextContent('free version');
  });

  it('signs out: revokes the token on the server, then forgets it', async () => {
    const { store } = await renderInApp(<QuickActions {...callbacks()} />, { apiBase: server.url, user: testUser });
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(store.get(tokenAtom)).toBeNull());
    const logout = server.requests.find((r) => r.url === '/api/User/Logout');
    expect(logout?.headers.authorization).toBe('Bearer test-token');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('opens the side panel through the callback and says so when Chrome refuses', async () => {
    const cb = callbacks();
    cb.onOpenSidePanel.mockRejectedValue(new Error('no gesture'));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await renderInApp(<QuickActions {...cb} />, { apiBase: server.url });
    await userEvent.click(screen.getByRole('button', { name: 'Open side panel' }));
    expect(cb.onOpenSidePanel).toHaveBeenCalled();
    expect(await screen.findByText('Could not open the side panel. Press Alt+T instead.')).toBeInTheDocument();
  });

  it('translates the page beside it for a signed-in user, and says so when the tab cannot be', async () => {
    const onTranslatePage = vi.fn().mockResolvedValue(undefined);
    const { unmount } = await renderInApp(<QuickActions {...callbacks()} onTranslatePage={onTranslatePage} />, { apiBase: server.url });
    expect(screen.queryByRole('button', { name: 'Translate this page' })).not.toBeInTheDocument();
    unmount();
    await renderInApp(<QuickActions {...callbacks()} onTranslatePage={onTranslatePage} />, { apiBase: server.url, user: testUser });
    await userEvent.click(screen.getByRole('button', { name: 'Translate this page' }));
    expect(onTranslatePage).toHaveBeenCalledTimes(1);
    onTranslatePage.mockRejectedValue(new Error('Cannot access a chrome:// URL'));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await userEvent.click(screen.getByRole('button', { name: 'Translate this page' }));
    expect(await screen.findByText('This page cannot be translated here.')).toBeInTheDocument();
  });
});
