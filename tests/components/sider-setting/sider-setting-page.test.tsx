import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SiderSettingPage } from '../../../components/sider-setting/sider-setting-page.tsx';
import { siderSettingsPersisted } from '../../../components/sider-setting/atoms.ts';
import { loadPersisted, writePersisted } from '../../../shared/storage/active.ts';
import { DEFAULT_SIDER_SETTINGS } from '../../../shared/utils/sider-settings.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

const server = serveTheseTests(
  fakeApi({
    '/api/Browser/AddBrowser': answer({ saved: 1 }),
  }),
);

describe('/sider_setting', () => {
  it('switches the toolbar and the icon, and turns a site back on', async () => {
    const onOpenPrompts = vi.fn();
    await renderInApp(<SiderSettingPage onBack={() => undefined} onOpenPrompts={onOpenPrompts} />, {
      apiBase: server.url,
      platform: { isExtension: true },
    });
    await writePersisted(siderSettingsPersisted, { ...DEFAULT_SIDER_SETTINGS, toolbarOffSites: ['news.example.com', 'mail.example.com'] });
    const user = userEvent.setup();

    await user.click(await screen.findByRole('switch', { name: 'Show the toolbar when I select text' }));
    await waitFor(async () => expect((await loadPersisted(siderSettingsPersisted)).toolbar).toBe(false));
    await user.click(screen.getByRole('switch', { name: "Show the Tandem icon at the page's edge" }));
    await waitFor(async () => expect((await loadPersisted(siderSettingsPersisted)).floatingIcon).toBe(false));

    await user.click(await screen.findByRole('button', { name: 'Turn back on for news.example.com' }));
    await waitFor(async () => expect((await loadPersisted(siderSettingsPersisted)).toolbarOffSites).toEqual(['mail.example.com']));
    // What the content script reads: the same envelope.
    expect(JSON.parse(localStorage.getItem('tandem.siderSettings')!)).toMatchObject({ v: 1, value: { toolbar: false, floatingIcon: false } });

    await user.click(screen.getByRole('button', { name: 'Prompt settings' }));
    expect(onOpenPrompts).toHaveBeenCalled();
    expect(screen.getByText('Keyboard shortcuts')).toBeTruthy();
  });

  it('on the web page, says these are the extension settings and offers the extension', async () => {
    await renderInApp(<SiderSettingPage onBack={() => undefined} onOpenPrompts={() => undefined} />, { apiBase: server.url });
    expect(await screen.findByText(/These settings belong to the Tandem browser extension/)).toBeTruthy();
    expect(screen.queryByLabelText('Show the toolbar when I select text')).toBeNull();
    expect(screen.queryByText('Keyboard shortcuts')).toBeNull();
  });
});
