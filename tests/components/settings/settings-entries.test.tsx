import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRouter } from '../../../components/app-shell/router.tsx';
import { AppRoutes } from '../../../components/layout/app-routes.tsx';
import { helpArticles } from '../../../components/newcomers/help-articles.ts';
import { SETTINGS_SECTIONS } from '../../../components/settings/sections.ts';
import type { Platform } from '../../../shared/platform/platform.ts';
import en from '../../../locales/features/settings.en.json';
import zh from '../../../locales/features/settings.zh.json';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/**
 * The ways into settings land on the section they are about: the chat's gear (the list on a narrow
 * screen, General on a wide one), the back buttons of the pages a section leads to, and the help
 * articles that say where something is.
 */
const server = serveTheseTests(
  fakeApi({
    '/api/User/GetUserByLogin': answer(testUser),
    '/api/Browser/AddBrowser': answer(),
    '/api/Chat/GetModelListAll': answer([testModel('basic', 0)]),
    '/api/Chat/GetChatSessionListBySelf': answer({ list: [], total: 0 }),
    '/api/Chat/GetShareList': answer([]),
  }),
);

async function openAt(path: string, platform: Partial<Platform> = {}) {
  window.history.replaceState(null, '', path);
  return renderInApp(
    <AppRouter platform={{ isExtension: false }}>
      <AppRoutes />
    </AppRouter>,
    { apiBase: server.url, user: testUser, platform },
  );
}

describe("the chat's gear", () => {
  it('opens the list of sections on a narrow screen', async () => {
    await openAt('/', { isH5: true, scene: 'h5' });
    await userEvent.click(await screen.findByRole('button', { name: 'Settings' }));
    expect(window.location.pathname).toBe('/setting');
    expect(await screen.findByTestId('settings-list')).toBeInTheDocument();
  });

  it('opens General beside the list on a wide screen', async () => {
    await openAt('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Settings' }));
    expect(await screen.findByRole('radiogroup', { name: 'Language' })).toBeInTheDocument();
    expect(screen.getByRole('button', { current: 'page' })).toHaveTextContent('General');
  });
});

describe('the pages a section leads to', () => {
  it.each([
    ['/prompt_setting', '/setting/prompts', 'Prompts and tools'],
    ['/sider_setting', '/setting/extension', 'Extension'],
  ])('%s goes back to %s', async (page, section, title) => {
    await openAt(page);
    await userEvent.click(await screen.findByRole('button', { name: 'Back' }));
    expect(window.location.pathname).toBe(section);
    expect(await screen.findByRole('button', { current: 'page' })).toHaveTextContent(title);
  });
});

describe('the help articles', () => {
  it('name a section of settings by its title wherever they say Settings → …', () => {
    for (const [language, strings, settings] of [
      ['en', en, 'Settings'],
      ['zh', zh, '设置'],
    ] as const) {
      const titles = SETTINGS_SECTIONS.map((id) => strings.settings.sections[id].title);
      const paths = helpArticles(language).flatMap((a) => [...a.body.matchAll(/\*\*([^*]+ → [^*]+)\*\*/g)].map((m) => m[1]!.split(' → ')));
      const inSettings = paths.filter((steps) => steps[0] === settings);
      expect(inSettings.length, language).toBeGreaterThanOrEqual(5);
      for (const steps of inSettings) expect(titles, `${language}: ${steps.join(' → ')}`).toContain(steps[1]);
    }
  });
});
