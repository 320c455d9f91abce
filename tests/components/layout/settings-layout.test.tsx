import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRouter } from '../../../components/app-shell/router.tsx';
import { AppRoutes } from '../../../components/layout/app-routes.tsx';
import type { Platform } from '../../../shared/platform/platform.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/**
 * The spec's settings layout: /setting, /subscription, /sider_setting and /prompt_setting share one
 * frame (components/layout/settings-layout.tsx), the sections' list beside the page on a wide screen,
 * tabs under its back bar on a narrow one, the page's section marked.
 */
const server = serveTheseTests(
  fakeApi({
    '/api/Browser/AddBrowser': answer(),
    '/api/Chat/GetModelListAll': answer([testModel('basic', 0)]),
    '/api/User/GetUserByLogin': answer(testUser),
    '/api/Vip/GetSubscription': answer(null),
    '/api/Vip/GetVipOrderList': answer({ list: [], total: 0 }),
    '/api/QuickFunction/GetUserQuickFunctionList': answer([]),
    '/api/TagPrompt/GetTagPromptList': answer([]),
  }),
);

const NARROW: Partial<Platform> = { isH5: true, scene: 'h5' };

async function openAt(path: string, platform: Partial<Platform> = {}) {
  window.history.replaceState(null, '', path);
  return renderInApp(
    <AppRouter platform={{ isExtension: false }}>
      <AppRoutes />
    </AppRouter>,
    { apiBase: server.url, user: testUser, platform },
  );
}

/** Each route of the layout, the section it belongs to, and the heading its page shows. */
const ROUTES = [
  ['/setting', 'General', 'General'],
  ['/subscription', 'Points and plan', 'Subscription'],
  ['/sider_setting', 'Extension', 'Toolbar and floating icon'],
  ['/prompt_setting', 'Prompts and tools', 'Prompts'],
] as const;

describe('the settings layout on a wide screen', () => {
  it.each(ROUTES)('%s shows its page beside the sections, %s marked', async (path, section, heading) => {
    await openAt(path);
    const layout = await screen.findByTestId('settings-layout');
    const nav = within(layout).getByRole('navigation', { name: 'Settings sections' });
    expect(within(nav).getByRole('button', { current: 'page' })).toHaveTextContent(section);
    // One title bar (the layout's), the page's own title as the heading beside the list.
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Settings']);
    expect(await within(layout).findByRole('heading', { level: 4, name: heading })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to chat' })).toBeInTheDocument();
  });

  it("leads from a page of the layout to another section through the list", async () => {
    await openAt('/subscription');
    const nav = await screen.findByRole('navigation', { name: 'Settings sections' });
    await userEvent.click(within(nav).getByRole('button', { name: 'Account' }));
    expect(window.location.pathname).toBe('/setting/account');
    expect(await screen.findByTestId('settings-section-account')).toBeInTheDocument();
    expect(within(screen.getByTestId('settings-nav')).getByRole('button', { current: 'page' })).toHaveTextContent('Account');
  });
});

describe('the settings layout on a narrow screen', () => {
  it.each(ROUTES.slice(1))('%s keeps its back bar, with the sections as tabs under it, %s marked', async (path, section) => {
    await openAt(path, NARROW);
    const tabs = await screen.findByTestId('settings-tabs');
    expect(within(tabs).getByRole('button', { current: 'page' })).toHaveTextContent(section);
    expect(screen.queryByTestId('settings-layout')).toBeNull();
  });

  it('shows the list at /setting without tabs, and tabs on a section', async () => {
    await openAt('/setting', NARROW);
    expect(await screen.findByTestId('settings-list')).toBeInTheDocument();
    expect(screen.queryByTestId('settings-tabs')).toBeNull();
    await userEvent.click(screen.getByTestId('settings-row-points'));
    const tabs = await screen.findByTestId('settings-tabs');
    expect(within(tabs).getByRole('button', { current: 'page' })).toHaveTextContent('Points and plan');
    await userEvent.click(within(tabs).getByRole('button', { name: 'Privacy and memory' }));
    expect(window.location.pathname).toBe('/setting/privacy');
  });
});
