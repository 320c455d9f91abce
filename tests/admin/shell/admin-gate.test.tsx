import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { AdminGate, loginAddress } from '../../../admin/shell/admin-gate.tsx';
import { AdminLayout } from '../../../admin/shell/admin-layout.tsx';
import { tokenAtom } from '../../../shared/atoms/auth.ts';
import type { UserInfo } from '../../../shared/contracts/user.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

const admin: UserInfo = { userId: 'a1', userName: 'Ada', email: 'ada@example.com', role: 'admin', vipOrder: null };
const member: UserInfo = { userId: 'u1', userName: 'Bob', email: 'bob@example.com', role: 'user', vipOrder: null };

let who: UserInfo | 'expired' = admin;
const server = serveTheseTests(
  fakeApi({
    '/api/User/GetUserByLogin': (_req, res) =>
      who === 'expired' ? sendEnvelope(res, { Code: 10402, Msg: 'Please log in again' }) : sendEnvelope(res, { Code: 10000, Data: who }),
    '/api/User/Logout': answer(),
  }),
);

async function renderGate(options: { user: UserInfo | null; urlLogin?: Promise<unknown> }) {
  const navigated: string[] = [];
  const { hook } = memoryLocation({ path: '/admin/users' });
  const result = await renderInApp(
    <Router hook={hook}>
      <AdminGate urlLogin={options.urlLogin} navigate={(url) => navigated.push(url)}>
        <AdminLayout>
          <p>console content</p>
        </AdminLayout>
      </AdminGate>
    </Router>,
    { apiBase: server.url, user: options.user },
  );
  return { ...result, navigated };
}

describe('loginAddress', () => {
  it('sends the login back to the same console address', () => {
    expect(loginAddress({ pathname: '/admin/users/u 1', search: '?page=2' })).toBe('/login?callback=%2Fadmin%2Fusers%2Fu%201%3Fpage%3D2');
  });
});

describe('AdminGate', () => {
  it('sends a visitor who is not signed in to the login page, coming back here', async () => {
    const { navigated } = await renderGate({ user: null });
    expect(await screen.findByRole('heading', { name: 'Sign in to the console' })).toBeInTheDocument();
    await waitFor(() => expect(navigated).toEqual([loginAddress()]));
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', loginAddress());
    expect(screen.queryByText('console content')).not.toBeInTheDocument();
  });

  it('waits for a sign-in from the address before sending anyone to the login page', async () => {
    let finish!: () => void;
    const urlLogin = new Promise<void>((resolve) => (finish = resolve));
    const { navigated, store } = await renderGate({ user: null, urlLogin });
    expect(await screen.findByRole('status', { name: 'Loading the console…' })).toBeInTheDocument();
    expect(navigated).toEqual([]);
    // The address's key signed this browser in as the admin.
    const { authActionAtom } = await import('../../../shared/atoms/auth.ts');
    await store.set(authActionAtom, { type: 'login', token: 'from-link', userInfo: admin });
    finish();
    expect(await screen.findByText('console content')).toBeInTheDocument();
    expect(navigated).toEqual([]);
  });

  it('shows "not allowed" to a signed-in account that is not an administrator, as the server says', async () => {
    who = member;
    // The role stored on this browser says admin; the server's answer is what counts.
    await renderGate({ user: { ...member, role: 'admin' } });
    const alert = await screen.findByTestId('admin-not-allowed');
    expect(alert).toHaveTextContent('bob@example.com is not an administrator of this server');
    expect(screen.getByRole('heading', { name: 'Not allowed' })).toBeInTheDocument();
    expect(screen.queryByText('console content')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open Tandem' })).toHaveAttribute('href', '/');
    who = admin;
  });

  it('"Sign in with another account" signs out, and the gate sends the browser to the login', async () => {
    who = member;
    const { navigated, store } = await renderGate({ user: member });
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with another account' }));
    await waitFor(() => expect(navigated).toEqual([loginAddress()]));
    expect(store.get(tokenAtom)).toBeNull();
    expect(server.requests.some((r) => r.url === '/api/User/Logout')).toBe(true);
    who = admin;
  });

  it('a login the server no longer accepts leads to the login page', async () => {
    who = 'expired';
    const { navigated } = await renderGate({ user: admin });
    await waitFor(() => expect(navigated).toEqual([loginAddress()]));
    who = admin;
  });

  it("lets an administrator in: the console's frame with its sections, the admin's e-mail and log out", async () => {
    const { navigated, store } = await renderGate({ user: admin });
    expect(await screen.findByText('console content')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Console sections' });
    const links = [...nav.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Dashboard', '/admin'],
      ['Users', '/admin/users'],
      ['Models', '/admin/models'],
      ['Money', '/admin/money/plans'],
      ['Campaigns', '/admin/campaigns'],
      ['Content', '/admin/content/plugins'],
      ['Audit log', '/admin/audit'],
    ]);
    expect(screen.getByRole('link', { name: 'Users' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByTestId('admin-email')).toHaveTextContent('ada@example.com');
    expect(document.title).toBe('Users · Tandem admin');

    await userEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(navigated).toEqual([loginAddress()]));
    expect(store.get(tokenAtom)).toBeNull();
  });
});
