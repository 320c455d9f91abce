import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslationSettings } from '../../../components/translate-settings/translation-settings.tsx';
import { DEFAULT_TRANSLATE_PREFS } from '../../../shared/contracts/translate.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { loadPersisted, writePersisted } from '../../../shared/storage/active.ts';
import { translatePrefsPersisted } from '../../../shared/storage/translate-prefs.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

// jsdom has no scrollIntoView; Mantine's option lists call it on the option they highlight.
beforeAll(() => {
  Element.prototype.scrollIntoView = () => undefined;
});
afterAll(() => {
  delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
});

const stored = () => loadPersisted(translatePrefsPersisted);

/** Opens the select labelled `label` and picks `option` in its own list. */
async function pick(label: string, option: string): Promise<void> {
  await userEvent.click(screen.getByLabelText(label, { selector: 'input' }));
  const list = await screen.findByRole('listbox', { name: label, hidden: true });
  await userEvent.click(within(list).getByRole('option', { name: option, hidden: true }));
}

describe('Settings: Translation', () => {
  const server = serveTheseTests(fakeApi({}));

  it('starts from the defaults: the app language, both languages, the typed trigger off, no sites', async () => {
    await renderInApp(<TranslationSettings />, { apiBase: server.url });
    expect(await screen.findByLabelText('Translate pages and selections into', { selector: 'input' })).toHaveValue("The app's language");
    expect(screen.getByRole('radio', { name: 'Both languages' })).toBeChecked();
    expect(screen.getByRole('switch', { name: /Translate what I type/ })).not.toBeChecked();
    expect(screen.getByLabelText('Translate what I type into', { selector: 'input' })).toBeDisabled();
    expect(within(screen.getByRole('group', { name: 'Always translate these sites' })).getByText('None yet.')).toBeVisible();
    expect(screen.getByRole('switch', { name: /Show the price before translating a page/ })).toBeChecked();
  });

  it('turns off (and back on) showing the price before a page is translated, the bar\'s "Don\'t ask again"', async () => {
    await renderInApp(<TranslationSettings />, { apiBase: server.url });
    const ask = await screen.findByRole('switch', { name: /Show the price before translating a page/ });
    await userEvent.click(ask);
    await waitFor(async () => expect((await stored()).askFirst).toBe(false));
    await userEvent.click(ask);
    await waitFor(async () => expect((await stored()).askFirst).toBe(true));
  });

  it('turns the typed-text trigger on, picks its language and a target language: all kept in TranslatePrefs', async () => {
    await renderInApp(<TranslationSettings />, { apiBase: server.url });
    await userEvent.click(await screen.findByRole('switch', { name: /Translate what I type/ }));
    await waitFor(async () => expect((await stored()).typedTrigger).toBe('triple-space'));

    const typed = screen.getByLabelText('Translate what I type into', { selector: 'input' });
    expect(typed).toBeEnabled();
    await pick('Translate what I type into', 'Japanese');
    await waitFor(async () => expect((await stored()).typedLanguage).toBe('ja'));

    await pick('Translate pages and selections into', 'French');
    await waitFor(async () => expect((await stored()).targetLanguage).toBe('fr'));

    await userEvent.click(screen.getByRole('radio', { name: 'The translation only' }));
    await waitFor(async () => expect((await stored()).display).toBe('replace'));
    // The rest is as it was.
    expect(await stored()).toMatchObject({ typedTrigger: 'triple-space', typedLanguage: 'ja', targetLanguage: 'fr', alwaysSites: [], neverSites: [] });
  });

  it('shows the always/never sites and removes one', async () => {
    await renderInApp(<TranslationSettings />, {
      apiBase: server.url,
      before: () => writePersisted(translatePrefsPersisted, { ...DEFAULT_TRANSLATE_PREFS, alwaysSites: ['lemonde.fr', 'elpais.com'], neverSites: ['bank.example'] }),
    });
    const always = await screen.findByRole('group', { name: 'Always translate these sites' });
    expect(within(always).getByText('lemonde.fr')).toBeVisible();
    expect(within(screen.getByRole('group', { name: 'Never offer to translate these sites' })).getByText('bank.example')).toBeVisible();
    await userEvent.click(within(always).getByRole('button', { name: 'Remove lemonde.fr' }));
    await waitFor(async () => expect((await stored()).alwaysSites).toEqual(['elpais.com']));
    expect(within(always).queryByText('lemonde.fr')).toBeNull();
    expect((await stored()).neverSites).toEqual(['bank.example']);
  });

  it('speaks Chinese when the app does', async () => {
    await renderInApp(<TranslationSettings />, { apiBase: server.url, before: () => setLanguage('zh') });
    expect(await screen.findByText('翻译')).toBeVisible();
    expect(screen.getByRole('switch', { name: /连按三次空格键/ })).toBeVisible();
    expect(screen.getByLabelText('网页和所选文字翻译为', { selector: 'input' })).toHaveValue('应用语言');
    expect(screen.getByRole('switch', { name: /翻译网页前先显示所需积分/ })).toBeChecked();
  });
});
