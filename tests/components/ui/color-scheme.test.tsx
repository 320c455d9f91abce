import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { SettingsPage } from '../../../components/settings/settings-page.tsx';
import { serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp } from '../../helpers/render-app.tsx';
import { colorSchemePersisted } from '../../../components/app-shell/color-scheme.ts';
import { loadPersisted } from '../../../shared/storage/active.ts';

/**
 * Light, dark or as the system: chosen in Settings, applied to the whole page at once (Mantine's
 * scheme attribute, which the app's own colours follow through light-dark()), kept in the page's
 * storage and applied again at the next start.
 */
const server = serveTheseTests();
const scheme = () => document.documentElement.getAttribute('data-mantine-color-scheme');
const stored = () => JSON.parse(localStorage.getItem('tandem.colorScheme') ?? 'null');

afterEach(cleanup);

describe('the colour scheme', () => {
  it('follows the system by default; Dark and Light apply at once and are kept', async () => {
    await renderInApp(<SettingsPage onOpen={() => undefined} onBack={() => undefined} />, { apiBase: server.url });
    await screen.findByRole('radiogroup', { name: 'Appearance' });
    expect(screen.getByRole('radio', { name: 'As the system' })).toBeChecked();
    // The test window's system scheme is light (tests/setup/jsdom.ts: no media query matches).
    expect(scheme()).toBe('light');

    await userEvent.click(screen.getByRole('radio', { name: 'Dark' }));
    await waitFor(() => expect(scheme()).toBe('dark'));
    expect(stored()).toEqual({ v: 1, value: 'dark' });

    await userEvent.click(screen.getByRole('radio', { name: 'Light' }));
    await waitFor(() => expect(scheme()).toBe('light'));
    expect(stored()).toEqual({ v: 1, value: 'light' });
  });

  it('starts in the scheme kept from before, from the first render', async () => {
    await renderInApp(<SettingsPage onOpen={() => undefined} onBack={() => undefined} />, {
      apiBase: server.url,
      // As startApp does: the kept choice is read before anything renders.
      before: async () => {
        localStorage.setItem('tandem.colorScheme', JSON.stringify({ v: 1, value: 'dark' }));
        await loadPersisted(colorSchemePersisted);
      },
    });
    expect(scheme()).toBe('dark');
    expect(await screen.findByRole('radio', { name: 'Dark' })).toBeChecked();
  });

  it('follows a choice made in another page of the same storage (the popup beside the side panel)', async () => {
    await renderInApp(<SettingsPage onOpen={() => undefined} onBack={() => undefined} />, { apiBase: server.url });
    await screen.findByRole('radiogroup', { name: 'Appearance' });
    const value = JSON.stringify({ v: 1, value: 'dark' });
    localStorage.setItem('tandem.colorScheme', value);
    window.dispatchEvent(new StorageEvent('storage', { key: 'tandem.colorScheme', newValue: value, storageArea: localStorage }));
    await waitFor(() => expect(scheme()).toBe('dark'));
    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();
  });
});
