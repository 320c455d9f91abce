import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../components/app-shell/app-providers.tsx';
import type { StartedApp } from '../../../components/app-shell/start.ts';
import { LoginPage } from '../../../components/login/login-page.tsx';
import { addUser, login } from '../../../shared/api/account.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import type { TestAppProcess } from '../../helpers/test-app-process.ts';
import { startWebPageAgainstServer } from '../../helpers/web-page-app.ts';

/**
 * The login page's "Continue with …" buttons against the real server (a child process): GitHub
 * (whose address the server builds without calling GitHub) and an OpenID provider that cannot be
 * reached (its discovery fails: the page says so in the person's language); and what the page does
 * with the callback's answer on its address.
 */
let server: TestAppProcess;
let app: StartedApp;
const account = { email: `provider-page-${randomUUID()}@example.test`, password: 'correct horse battery' };

beforeAll(async () => {
  ({ server, app } = await startWebPageAgainstServer('/login', {
    GITHUB_CLIENT_ID: 'gh-client',
    GITHUB_CLIENT_SECRET: 'gh-secret',
    // Nothing listens on port 9: discovery fails.
    OIDC_PROVIDERS: JSON.stringify([{ key: 'acme', name: 'Acme ID', issuer: 'http://127.0.0.1:9', clientId: 'c', clientSecret: 's' }]),
  }));
  await addUser(account);
});
afterAll(async () => {
  app?.stop();
  await server?.close();
});
beforeEach(async () => {
  await setLanguage('en');
  window.history.replaceState(null, '', '/login');
});

async function renderPage() {
  const navigate = vi.fn<(url: string) => void>();
  render(
    <AppProviders store={app.store} queryClient={app.queryClient} i18n={app.i18n} platform={app.platform}>
      <LoginPage navigate={navigate} />
    </AppProviders>,
  );
  await waitFor(() => expect(screen.queryByLabelText('Email') ?? screen.queryByTestId('provider-link') ?? screen.queryByTestId('login-outcome')).toBeInTheDocument());
  return { navigate, user: userEvent.setup() };
}

describe('Continue with a provider', () => {
  it('shows a button per enabled provider and sends the browser to the provider with state and PKCE', async () => {
    window.history.replaceState(null, '', '/login?callback=%2Fchat');
    const { navigate, user } = await renderPage();
    const github = await screen.findByRole('button', { name: 'Continue with GitHub' });
    expect(screen.getByRole('button', { name: 'Continue with Acme ID' })).toBeInTheDocument();
    await user.click(github);
    await waitFor(() => expect(navigate).toHaveBeenCalledTimes(1));
    const target = new URL(navigate.mock.calls[0]![0]);
    expect(`${target.origin}${target.pathname}`).toBe('https://github.com/login/oauth/authorize');
    expect(target.searchParams.get('client_id')).toBe('gh-client');
    expect(target.searchParams.get('code_challenge_method')).toBe('S256');
    expect(target.searchParams.get('state')).toBeTruthy();
    expect(target.searchParams.get('redirect_uri')).toMatch(/\/api\/Provider\/Callback$/);
  });

  it('says when the provider cannot be reached, in the person’s language', async () => {
    const { navigate, user } = await renderPage();
    await user.click(await screen.findByRole('button', { name: 'Continue with Acme ID' }));
    expect(await screen.findByTestId('provider-error')).toHaveTextContent('Acme ID cannot be reached right now');
    await setLanguage('zh');
    await user.click(await screen.findByRole('button', { name: '使用 Acme ID 继续' }));
    await waitFor(() => expect(screen.getByTestId('provider-error')).toHaveTextContent('暂时无法连接 Acme ID'));
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('the callback’s answer on the address', () => {
  it('shows an error in the person’s language and takes it off the address', async () => {
    window.history.replaceState(null, '', '/login?providerError=emailNotVerified&keep=1');
    await renderPage();
    expect(screen.getByTestId('provider-error')).toHaveTextContent('the provider does not say the e-mail is verified');
    expect(window.location.search).toBe('?keep=1');
    await setLanguage('zh');
    await waitFor(() => expect(screen.getByTestId('provider-error')).toHaveTextContent('服务商未确认该邮箱已验证'));
  });

  it('hands a temp key on as a password sign-in would', async () => {
    const { tempKey } = await login(account);
    window.history.replaceState(null, '', `/login?providerTempKey=${encodeURIComponent(tempKey)}`);
    const { navigate } = await renderPage();
    await waitFor(() => expect(navigate).toHaveBeenCalledTimes(1));
    expect(new URL(navigate.mock.calls[0]![0]).searchParams.get('tempKey')).toBe(tempKey);
    expect(window.location.search).toBe('');
  });

  it('asks for the password before linking an existing account, and says when the request is stale', async () => {
    window.history.replaceState(null, '', `/login?providerLink=stale-id&providerEmail=${encodeURIComponent(account.email)}&providerName=Acme%20ID`);
    const { navigate, user } = await renderPage();
    expect(screen.getByText('Link Acme ID to your account')).toBeInTheDocument();
    expect(screen.getByText(new RegExp(`An account with ${account.email} already exists`))).toBeInTheDocument();
    await user.type(screen.getByLabelText(`Password of ${account.email}`), account.password);
    await user.click(screen.getByRole('button', { name: 'Link and sign in' }));
    expect(await screen.findByTestId('provider-link-error')).toHaveTextContent('expired or was already used');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
    expect(navigate).not.toHaveBeenCalled();
  });
});
