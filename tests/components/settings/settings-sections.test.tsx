import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRouter } from '../../../components/app-shell/router.tsx';
import { AppRoutes } from '../../../components/layout/app-routes.tsx';
import { isLoggedInAtom } from '../../../shared/atoms/auth.ts';
import type { UserInfo } from '../../../shared/contracts/user.ts';
import type { Platform } from '../../../shared/platform/platform.ts';
import { answer, serveTheseTests } from '../../helpers/fake-api.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';
import { fakePersonalizationApi, freshState, type FakeState } from '../personalization/fake-personalization.ts';

/**
 * Settings in sections (components/settings, composed by components/layout/settings-routes.tsx):
 * /setting is the list on a narrow screen and General beside the list on a wide one; each section is
 * /setting/<slug> with its own settings and what the other features add to it.
 */

let state: FakeState;
const server = serveTheseTests(
  fakePersonalizationApi(() => state, {
    '/api/User/GetUserByLogin': answer(testUser),
    '/api/Browser/AddBrowser': answer(),
    '/api/Chat/GetModelListAll': answer([testModel('basic', 0)]),
    '/api/User/GetUserIntegralByLogin': answer([{ integralType: 1, integralValue: 1540, useIntegral: 60, kept: 1540 }]),
    '/api/User/IsUserSignin': answer({ signedIn: true, streak: 1, points: 10, today: '2026-11-25' }),
    '/api/User/GetUserIntegralLogList': answer({ list: [], total: 0 }),
    '/api/Chat/GetShareList': answer([]),
  }),
);
beforeEach(() => {
  state = freshState({ onboarding: 'done', occupation: 'Baker' });
});

const NARROW: Partial<Platform> = { isH5: true, scene: 'h5' };

/** The app's routes at `path` on the web (narrow with NARROW), signed in unless `user` is null. */
async function openAt(path: string, platform: Partial<Platform> = {}, user: UserInfo | null = testUser) {
  window.history.replaceState(null, '', path);
  return renderInApp(
    <AppRouter platform={{ isExtension: false }}>
      <AppRoutes />
    </AppRouter>,
    { apiBase: server.url, user, platform },
  );
}

const SECTIONS = [
  ['general', 'General', 'Language, appearance and help'],
  ['account', 'Account', 'Profile, picture, password, signing out and inviting friends'],
  ['points', 'Points and plan', 'Balance, daily check-in, redeem codes and your plan'],
  ['prompts', 'Prompts and tools', 'Your prompts, quick tools and saved answers'],
  ['privacy', 'Privacy and memory', 'Personalization, memory and shared links'],
  ['extension', 'Extension', 'Get the browser extension and what it adds'],
] as const;

describe('settings on a narrow screen (a phone, the side panel)', () => {
  it('lists every section at /setting, each with its icon, title and what is inside it', async () => {
    await openAt('/setting', NARROW);
    const list = await screen.findByTestId('settings-list');
    // Every section, then signing out.
    expect(within(list).getAllByRole('button')).toHaveLength(SECTIONS.length + 1);
    for (const [id, title, hint] of SECTIONS) {
      const row = within(list).getByTestId(`settings-row-${id}`);
      expect(row).toHaveTextContent(title);
      expect(row).toHaveTextContent(hint);
      expect(row.querySelector('svg')).not.toBeNull();
    }
    // No section's content yet: the list is the page.
    expect(screen.queryByRole('radiogroup', { name: 'Language' })).toBeNull();
    expect(screen.getByTestId('settings-back-bar')).toHaveTextContent('Settings');
  });

  it('opens a section as a page of its own, whose back arrow goes to the list', async () => {
    const user = userEvent.setup();
    await openAt('/setting', NARROW);
    await user.click(await screen.findByTestId('settings-row-points'));
    expect(window.location.pathname).toBe('/setting/points');
    expect(await screen.findByTestId('points-section')).toBeInTheDocument();
    expect(screen.getByTestId('settings-back-bar')).toHaveTextContent('Points and plan');
    expect(screen.queryByTestId('settings-list')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Back to settings' }));
    expect(window.location.pathname).toBe('/setting');
    expect(await screen.findByTestId('settings-list')).toBeInTheDocument();
    expect(screen.queryByTestId('points-section')).toBeNull();

    // The list's own back arrow goes to the chat.
    await user.click(screen.getByRole('button', { name: 'Back to chat' }));
    expect(window.location.pathname).toBe('/');
  });

  it("in the extension says what the extension's sections hold there: the server, the toolbar", async () => {
    window.location.hash = '#/setting';
    await renderInApp(
      <AppRouter platform={{ isExtension: true }}>
        <AppRoutes />
      </AppRouter>,
      { apiBase: server.url, user: testUser, platform: { ...NARROW, isExtension: true, scene: 'extension' } },
    );
    expect(await screen.findByTestId('settings-row-general')).toHaveTextContent('Language, appearance, server and help');
    expect(screen.getByTestId('settings-row-extension')).toHaveTextContent('Selection toolbar, floating icon and shortcuts');
    await userEvent.click(screen.getByTestId('settings-row-extension'));
    expect(window.location.hash).toBe('#/setting/extension');
    expect(await screen.findByRole('switch', { name: 'Show the toolbar when I select text' })).toBeInTheDocument();
    expect(screen.queryByTestId('get-extension-section')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Back to settings' }));
    await userEvent.click(await screen.findByTestId('settings-row-general'));
    expect(await screen.findByRole('textbox', { name: 'Server' })).toBeInTheDocument();
    window.location.hash = '';
  });
});

describe('settings on a wide screen (the web app on a desktop)', () => {
  const current = () => within(screen.getByTestId('settings-nav')).getByRole('button', { current: 'page' });

  it('opens General beside the list at /setting, the open section marked', async () => {
    const user = userEvent.setup();
    await openAt('/setting');
    expect(await screen.findByRole('radiogroup', { name: 'Language' })).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: 'Appearance' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Settings sections' });
    expect(within(nav).getAllByRole('button').map((b) => b.textContent)).toEqual([...SECTIONS.map(([, title]) => title), 'Log out']);
    expect(current()).toHaveTextContent('General');
    expect(screen.getByRole('heading', { level: 4, name: 'General' })).toBeInTheDocument();

    await user.click(within(nav).getByRole('button', { name: 'Account' }));
    expect(window.location.pathname).toBe('/setting/account');
    expect(await screen.findByText('E-mail: alice@example.com')).toBeInTheDocument();
    expect(current()).toHaveTextContent('Account');
    expect(within(nav).getByRole('button', { name: 'General' })).not.toHaveAttribute('aria-current');
    // Still beside the list, not a page of its own.
    expect(screen.getByTestId('settings-nav')).toBeInTheDocument();
    expect(screen.queryByRole('radiogroup', { name: 'Language' })).toBeNull();
  });

  const CONTENT: Record<(typeof SECTIONS)[number][0], () => Promise<unknown>> = {
    general: () => Promise.all([screen.findByRole('radiogroup', { name: 'Language' }), screen.findByTestId('help-settings-section')]),
    account: () => Promise.all([screen.findByTestId('settings-profile'), screen.findByTestId('settings-section-account').then((section) => within(section).findByRole('button', { name: 'Log out' })), screen.findByRole('button', { name: 'Invite friends' })]),
    points: () => Promise.all([screen.findByTestId('points-section'), screen.findByTestId('plan-settings')]),
    prompts: () => Promise.all([screen.findByRole('button', { name: 'Manage prompts' }), screen.findByTestId('open-favourites')]),
    privacy: () => Promise.all([screen.findByTestId('personalization-section'), screen.findByTestId('memory-section'), screen.findByTestId('share-settings')]),
    extension: () => Promise.all([screen.findByTestId('sider-setting-web'), screen.findByTestId('get-extension-section')]),
  };

  it.each(SECTIONS.map(([id, title]) => [id, title] as const))('/setting/%s shows %s with its content, and no other section', async (id, title) => {
    await openAt(`/setting/${id}`);
    await CONTENT[id]();
    expect(current()).toHaveTextContent(title);
    expect(screen.getByTestId(`settings-section-${id}`)).toBeInTheDocument();
    expect(document.querySelectorAll('[data-testid^="settings-section-"]')).toHaveLength(1);
  });

  it('an address of no section is the not-found page', async () => {
    await openAt('/setting/billing');
    expect(await screen.findByTestId('page-not-found')).toHaveTextContent('Page not found');
    expect(screen.queryByTestId('settings-nav')).toBeNull();
  });

  it("asks a visitor to sign in where a section's settings are all the account's", async () => {
    await openAt('/setting/points', {}, null);
    expect(await screen.findByText('Sign in to see your points, check in every day and choose a plan.')).toBeInTheDocument();
    expect(screen.queryByTestId('points-section')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByTestId('login-notice')).toHaveTextContent('Sign in to see your settings');
    // A visitor has nothing to sign out of.
    expect(screen.queryByTestId('settings-logout')).toBeNull();
  });
});

describe('signing out from the list', () => {
  it.each([
    ['a narrow screen', NARROW, 'settings-list'],
    ['a wide screen', {}, 'settings-nav'],
  ] as const)('is one click from the list on %s, as near as on the one long page', async (_name, platform, list) => {
    const { store } = await openAt('/setting', platform);
    const row = within(await screen.findByTestId(list)).getByTestId('settings-logout');
    expect(row).toHaveTextContent('Log out');
    await userEvent.click(row);
    await waitFor(() => expect(store.get(isLoggedInAtom)).toBe(false));
    expect(server.requests.some((r) => r.url.startsWith('/api/User/Logout'))).toBe(true);
  });
});
