import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../components/app-shell/app-providers.tsx';
import type { StartedApp } from '../../../components/app-shell/start.ts';
import { LoginPage } from '../../../components/login/login-page.tsx';
import { addUser } from '../../../shared/api/account.ts';
import { getTokenForTempKey } from '../../../shared/api/user.ts';
import { consumeLoginState } from '../../../components/login/atoms.ts';
import { BUILT_IN_EXTENSION_ID } from '../../../shared/contracts/extension.ts';
import { LoginFrameMessageSchema } from '../../../shared/contracts/login-frame.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import type { TestAppProcess } from '../../helpers/test-app-process.ts';
import { startWebPageAgainstServer } from '../../helpers/web-page-app.ts';

// The real server in a child process: the page's calls reach the real Account routes over HTTP.
let server: TestAppProcess;
let app: StartedApp;
const account = { email: `login-page-${randomUUID()}@example.test`, password: 'correct horse battery' };

beforeAll(async () => {
  ({ server, app } = await startWebPageAgainstServer('/login'));
  await addUser(account);
});

afterAll(async () => {
  app?.stop();
  await server?.close();
});

const ownOrigin = window.location.origin;
const parentDescriptor = Object.getOwnPropertyDescriptor(window, 'parent')!;

interface Posted {
  message: unknown;
  targetOrigin: string;
}

/** Puts the page in a frame whose parent is known only through the referrer (jsdom has no ancestorOrigins). */
function frameBy(referrer: string): Posted[] {
  const posted: Posted[] = [];
  const parent = { postMessage: (message: unknown, targetOrigin: string) => posted.push({ message, targetOrigin }) };
  Object.defineProperty(window, 'parent', { value: parent, configurable: true });
  Object.defineProperty(document, 'referrer', { value: referrer, configurable: true });
  return posted;
}

beforeEach(async () => {
  await setLanguage('en');
  window.history.replaceState(null, '', '/login');
});

afterEach(() => {
  Object.defineProperty(window, 'parent', parentDescriptor);
  delete (document as { referrer?: string }).referrer;
});

/** Renders the page and waits until it knows which extensions the server trusts (its form or its refusal shows). */
async function renderPage() {
  const navigate = vi.fn<(url: string) => void>();
  render(
    <AppProviders store={app.store} queryClient={app.queryClient} i18n={app.i18n} platform={app.platform}>
      <LoginPage navigate={navigate} />
    </AppProviders>,
  );
  await waitFor(() => expect(screen.queryByLabelText('Email') ?? screen.queryByTestId('not-allowed')).toBeInTheDocument());
  return { navigate, user: userEvent.setup() };
}

const emailInput = () => screen.getByLabelText('Email');
const passwordInput = () => screen.getByLabelText('Password');

async function signIn(user: ReturnType<typeof userEvent.setup>, email: string, password: string) {
  await user.type(emailInput(), email);
  await user.type(passwordInput(), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('LoginPage validation', () => {
  it('asks for the e-mail and password, a valid e-mail, and 8 characters when creating an account', async () => {
    const { user, navigate } = await renderPage();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    expect(emailInput()).toHaveAttribute('aria-invalid', 'true');

    await user.type(emailInput(), 'not-an-email');
    // Editing a field clears its message until the next submit.
    expect(screen.getAllByText('This field is required')).toHaveLength(1);
    await user.type(passwordInput(), 'short{Enter}');
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    expect(screen.queryByText('This field is required')).not.toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Create account' }));
    expect(screen.getByLabelText('User name (optional)')).toBeInTheDocument();
    await user.clear(emailInput());
    await user.type(emailInput(), 'new@example.test');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('The password must be at least 8 characters')).toBeInTheDocument();
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('LoginPage in the login dialog frame', () => {
  it('tells a parent on its own origin that nobody is signed in, then hands it the temp key', async () => {
    const posted = frameBy(`${ownOrigin}/some/page?x=1`);
    const { user, navigate } = await renderPage();
    await waitFor(() => expect(posted).toContainEqual({ message: { type: 'not-logged-in' }, targetOrigin: ownOrigin }));

    await user.type(emailInput(), account.email);
    await user.type(passwordInput(), account.password);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    // Loading while the server checks the password.
    expect(screen.getByRole('button', { name: 'Sign in' })).toHaveAttribute('data-loading');

    expect(await screen.findByText('You can close this window now.')).toBeInTheDocument();
    expect(screen.getByText('Signed in')).toBeInTheDocument();
    const success = posted.filter((p) => (p.message as { type: string }).type === 'login-success');
    expect(success).toHaveLength(1);
    expect(success[0].targetOrigin).toBe(ownOrigin);
    const message = LoginFrameMessageSchema.parse(success[0].message);
    expect(message).toMatchObject({ type: 'login-success', code: 200 });
    // The key is a real one: the parent can exchange it for a token.
    if (message.type !== 'login-success') throw new Error('unexpected message');
    await expect(getTokenForTempKey(message.tempKey)).resolves.toMatch(/\S+/);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('posts to an extension page with its exact chrome-extension:// origin (Enter submits)', async () => {
    const extensionOrigin = `chrome-extension://${BUILT_IN_EXTENSION_ID}`;
    const posted = frameBy(`${extensionOrigin}/sidepanel.html`);
    const { user } = await renderPage();
    await user.type(emailInput(), account.email);
    await user.type(passwordInput(), `${account.password}{Enter}`);
    await screen.findByText('You can close this window now.');
    expect(posted.map((p) => p.targetOrigin)).toEqual([extensionOrigin, extensionOrigin]);
    expect(posted.map((p) => (p.message as { type: string }).type)).toEqual(['not-logged-in', 'login-success']);
  });

  for (const [label, referrer] of [
    ['an unknown site', 'https://evil.example/phish'],
    ['an extension the server does not list', 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/page.html'],
  ]) {
    it(`signs nobody in for ${label}, and says why`, async () => {
      const posted = frameBy(referrer);
      const { navigate } = await renderPage();
      expect(screen.getByTestId('not-allowed')).toHaveTextContent('This app is not allowed to sign in with Tandem');
      // No form: no password is typed into a page that could not hand the sign-in on safely.
      expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
      expect(posted).toEqual([]);
      expect(navigate).not.toHaveBeenCalled();
    });
  }
});

describe('LoginPage server answers', () => {
  it("shows the server's message for wrong credentials", async () => {
    const { user, navigate } = await renderPage();
    await signIn(user, account.email, 'wrong password');
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Wrong e-mail or password.');
    expect(navigate).not.toHaveBeenCalled();
  });

  it("shows the server's message when the e-mail already has an account", async () => {
    const { user } = await renderPage();
    await user.click(screen.getByRole('tab', { name: 'Create account' }));
    await user.type(emailInput(), account.email);
    await user.type(passwordInput(), 'another long password');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByTestId('login-error')).toHaveTextContent('An account with this e-mail already exists.');
  });
});

describe('LoginPage outside a frame', () => {
  it('creates an account, signs in with it and goes to the web app root with the temp key', async () => {
    const { user, navigate } = await renderPage();
    await user.click(screen.getByRole('tab', { name: 'Create account' }));
    await user.type(emailInput(), `  New-${randomUUID()}@Example.test `);
    await user.type(passwordInput(), 'a long enough password');
    await user.type(screen.getByLabelText('User name (optional)'), 'Newcomer');
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    await waitFor(() => expect(navigate).toHaveBeenCalledTimes(1));
    const target = new URL(navigate.mock.calls[0][0]);
    expect(`${target.origin}${target.pathname}`).toBe(`${ownOrigin}/`);
    const tempKey = target.searchParams.get('tempKey')!;
    await expect(getTokenForTempKey(tempKey)).resolves.toMatch(/\S+/);
    expect(screen.getByText('Taking you back…')).toBeInTheDocument();
  });

  it('goes back to a callback on its own origin, keeping its path and parameters', async () => {
    window.history.replaceState(null, '', `/login?callback=${encodeURIComponent(`${ownOrigin}/pricing?plan=year#top`)}`);
    const { user, navigate } = await renderPage();
    await signIn(user, account.email, account.password);
    await waitFor(() => expect(navigate).toHaveBeenCalledTimes(1));
    const target = new URL(navigate.mock.calls[0][0]);
    expect(`${target.origin}${target.pathname}${target.hash}`).toBe(`${ownOrigin}/pricing#top`);
    expect(target.searchParams.get('plan')).toBe('year');
    expect(target.searchParams.get('tempKey')).toBeTruthy();
  });

  it('hands a trusted extension its key with the state it sent, and keeps no state of its own', async () => {
    const callback = `chrome-extension://${BUILT_IN_EXTENSION_ID}/app.html#/`;
    window.history.replaceState(null, '', `/login?callback=${encodeURIComponent(callback)}&state=from-the-extension-0123`);
    const { user, navigate } = await renderPage();
    await signIn(user, account.email, account.password);
    await waitFor(() => expect(navigate).toHaveBeenCalledTimes(1));
    const target = new URL(navigate.mock.calls[0][0]);
    expect(target.href.startsWith(`chrome-extension://${BUILT_IN_EXTENSION_ID}/app.html?`)).toBe(true);
    expect(target.searchParams.get('state')).toBe('from-the-extension-0123');
    expect(target.searchParams.get('tempKey')).toBeTruthy();
  });

  it('marks a login sent to its own origin with a state this browser keeps, so the web app asks nothing', async () => {
    const { user, navigate } = await renderPage();
    await signIn(user, account.email, account.password);
    await waitFor(() => expect(navigate).toHaveBeenCalledTimes(1));
    const state = new URL(navigate.mock.calls[0][0]).searchParams.get('state');
    expect(state).toMatch(/^[0-9a-f]{36}$/);
    expect(await consumeLoginState(state)).toBe(true);
    expect(await consumeLoginState(state), 'a state is used once').toBe(false);
  });

  for (const callback of ['https://evil.example/steal', 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/callback.html']) {
    it(`hands no key to a callback at ${new URL(callback).origin}, and says why`, async () => {
      window.history.replaceState(null, '', `/login?callback=${encodeURIComponent(callback)}`);
      const { navigate } = await renderPage();
      expect(screen.getByTestId('not-allowed')).toHaveTextContent('not one this Tandem server trusts');
      expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
      expect(navigate).not.toHaveBeenCalled();
    });
  }
});

describe('LoginPage language', () => {
  it('switches to Chinese and stores the choice', async () => {
    const { user } = await renderPage();
    await user.click(screen.getByText('中文'));
    expect(await screen.findByRole('tab', { name: '登录' })).toBeInTheDocument();
    expect(screen.getByLabelText('邮箱')).toBeInTheDocument();
    expect(localStorage.getItem('tandem.language')).toContain('zh');
    expect(document.documentElement.lang).toBe('zh');
  });
});
