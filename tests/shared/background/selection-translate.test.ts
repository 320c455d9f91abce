import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it } from 'vitest';
import { handleTranslateMessage, isTranslateMessage, segmentsOf } from '../../../entrypoints/background/selection-translate.ts';
import { TRANSLATE_MAX_SEGMENT_CHARS } from '../../../shared/contracts/translate.ts';
import { installStorage } from '../../../shared/storage/active.ts';
import { createExtensionStorage } from '../../../shared/storage/extension.ts';
import { SELECTION_MESSAGE_SOURCE, type TranslateReply } from '../../../shared/utils/sider-settings.ts';

const tab = { id: 3, windowId: 7, index: 0, highlighted: true, active: true, pinned: false, incognito: false } as chrome.tabs.Tab;
const fromContentScript = { id: fakeBrowser.runtime.id, tab, frameId: 0 };
const request = { source: SELECTION_MESSAGE_SOURCE, type: 'translate', text: 'Bonjour', targetLanguage: 'en' };

/** The reply handleTranslateMessage gives, and whether it kept the channel open. */
async function ask(message: unknown, sender: chrome.runtime.MessageSender): Promise<{ open: boolean; reply: TranslateReply | undefined }> {
  let answered: (reply: TranslateReply) => void = () => undefined;
  const later = new Promise<TranslateReply>((resolve) => (answered = resolve));
  let reply: TranslateReply | undefined;
  const open = handleTranslateMessage(message, sender, (r) => {
    reply = r;
    answered(r);
  });
  return { open, reply: open ? await later : reply };
}

describe('the selection card\'s translate message in the background', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    installStorage(createExtensionStorage());
  });

  it('is told apart from the toolbar\'s other messages', () => {
    expect(isTranslateMessage(request)).toBe(true);
    expect(isTranslateMessage({ ...request, type: 'ask' })).toBe(false);
    expect(isTranslateMessage({ ...request, source: 'a-page' })).toBe(false);
  });

  it('answers only this extension\'s content script in a tab\'s top frame', async () => {
    expect((await ask(request, { ...fromContentScript, id: 'someone-else' })).open).toBe(false);
    expect((await ask(request, { id: fakeBrowser.runtime.id })).open).toBe(false);
    expect((await ask(request, { ...fromContentScript, frameId: 2 })).open).toBe(false);
  });

  it('refuses a bad payload: an unknown language, empty or too long text', async () => {
    for (const bad of [{ ...request, targetLanguage: 'xx' }, { ...request, text: '   ' }, { ...request, text: 'a'.repeat(12_001) }]) {
      expect(await ask(bad, fromContentScript)).toEqual({ open: false, reply: { ok: false, reason: 'failed', message: '' } });
    }
  });

  it('asks a visitor (no token) to sign in, without calling the server', async () => {
    expect(await ask(request, fromContentScript)).toEqual({ open: true, reply: { ok: false, reason: 'signIn', message: '' } });
  });

  it('cuts a long text into segments the server takes, at line breaks', () => {
    const line = 'x'.repeat(3000);
    const segments = segmentsOf([line, line, line].join('\n'));
    expect(segments).toEqual([line, line, line]);
    const long = 'y'.repeat(TRANSLATE_MAX_SEGMENT_CHARS + 10);
    expect(segmentsOf(long).map((s) => s.length)).toEqual([TRANSLATE_MAX_SEGMENT_CHARS, 10]);
    expect(segmentsOf('a\nb')).toEqual(['a\nb']);
  });
});
