import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRouter } from '../../../components/app-shell/router.tsx';
import { AppRoutes } from '../../../components/layout/app-routes.tsx';
import { LoginPage } from '../../../components/login/login-page.tsx';
import { INVITE_CODE_TTL_MS, keepInviteCodeFromUrl, pendingInviteCode, pendingInviteCodePersisted } from '../../../shared/atoms/invite-code.ts';
import { writePersisted } from '../../../shared/storage/active.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

const server = serveTheseTests(
  fakeApi({
    '/api/Account/AddUser': answer({ userId: 'u9', userName: 'Bo', email: 'bo@example.com' }),
    '/api/Account/Login': answer({ tempKey: 'temp-key-1' }),
    '/api/Browser/AddBrowser': answer({ saved: 1 }),
  }),
);
const bodies = (path: string) => server.requests.filter((r) => r.url.startsWith(path)).map((r) => JSON.parse(r.body) as Record<string, unknown>);

beforeEach(() => window.history.replaceState(null, '', '/'));
afterEach(() => window.history.replaceState(null, '', '/'));

describe('an invite code from the address', () => {
  it('is kept and leaves the address bar, other parameters staying', async () => {
    window.history.replaceState(null, '', '/chat?inviteCode=K7QX2M9P&x=1#top');
    expect(await keepInviteCodeFromUrl()).toBe('K7QX2M9P');
    expect(`${location.pathname}${location.search}${location.hash}`).toBe('/chat?x=1#top');
    expect(JSON.parse(localStorage.getItem('tandem.invite.pendingCode')!).value.code).toBe('K7QX2M9P');
    // A later visit without one keeps it.
    expect(await keepInviteCodeFromUrl()).toBe('K7QX2M9P');
  });

  it('is not kept when it does not look like a code (but still leaves the address)', async () => {
    window.history.replaceState(null, '', '/?inviteCode=%3Cscript%3E');
    expect(await keepInviteCodeFromUrl()).toBeNull();
    expect(location.search).toBe('');
  });

  it('is forgotten after a few days', async () => {
    const now = Date.now();
    await writePersisted(pendingInviteCodePersisted, { code: 'K7QX2M9P', savedAt: now - INVITE_CODE_TTL_MS + 60_000 });
    expect(await pendingInviteCode(now)).toBe('K7QX2M9P');
    expect(await pendingInviteCode(now + 120_000)).toBeNull();
    expect(localStorage.getItem('tandem.invite.pendingCode')).toBeNull();
  });

  it('goes with the page views of the app, which opens /invited', async () => {
    window.history.replaceState(null, '', '/invited?inviteCode=K7QX2M9P');
    await renderInApp(
      <AppRouter platform={{ isExtension: false }}>
        <AppRoutes />
      </AppRouter>,
      { apiBase: server.url, user: null },
    );
    expect(await screen.findByText(/Sign in to get your invite link/)).toBeInTheDocument();
    await waitFor(() => expect(bodies('/api/Browser/AddBrowser')).toHaveLength(1));
    const [view] = bodies('/api/Browser/AddBrowser') as unknown as { payload: { inviteCode?: string; currentUrl: string } }[][];
    expect(view[0].payload.inviteCode).toBe('K7QX2M9P');
    expect(view[0].payload.currentUrl).not.toContain('inviteCode');
    expect(location.pathname + location.search).toBe('/invited');
  });
});

describe('signing up on the login page', () => {
  /** Signs up on the login page; `meanwhile` runs once it is rendered (on the fresh storage of the test). */
  async function signUp(meanwhile: () => Promise<unknown> = async () => {}) {
    const navigate = vi.fn<(url: string) => void>();
    window.history.replaceState(null, '', '/login');
    await renderInApp(<LoginPage navigate={navigate} />, { apiBase: server.url, user: null });
    await meanwhile();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Create account' }));
    await user.type(screen.getByLabelText('Email'), 'bo@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse 42');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(navigate).toHaveBeenCalled());
  }

  it('sends the kept invite code with AddUser, then forgets it', async () => {
    // Kept by the app (another page of this origin) before the login page is used.
    await signUp(() => keepInviteCodeFromUrl('http://localhost:3000/?inviteCode=K7QX2M9P', () => {}));
    expect(bodies('/api/Account/AddUser')).toEqual([{ email: 'bo@example.com', password: 'correct horse 42', inviteCode: 'K7QX2M9P' }]);
    expect(await pendingInviteCode()).toBeNull();
  });

  it('keeps a code the login page itself was opened with', async () => {
    window.history.replaceState(null, '', '/login?inviteCode=ABCD2345');
    await renderInApp(<LoginPage navigate={vi.fn()} />, { apiBase: server.url, user: null });
    await act(async () => {});
    await waitFor(async () => expect(await pendingInviteCode()).toBe('ABCD2345'));
    expect(location.search).toBe('');
  });

  it('sends no invite code without one', async () => {
    await signUp();
    expect(bodies('/api/Account/AddUser')[0]).not.toHaveProperty('inviteCode');
  });
});
