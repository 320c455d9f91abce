import { browser } from 'wxt/browser';
import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import type { TranslateLanguage } from '../shared/contracts/translate.ts';
import { createBar, type Bar } from '../shared/utils/page-translate/bar.ts';
import { findBlocks, PageTranslator, serializeBlock } from '../shared/utils/page-translate/engine.ts';
import { PAGE_TRANSLATOR_SOURCE, type PageTranslationState, type PageTranslatorConfig } from '../shared/utils/page-translate/protocol.ts';
import type { PageTranslatorReply } from '../shared/utils/page-translate/schemas.ts';
import { pageStringsFor } from '../shared/utils/page-translate/strings.ts';
import { SELECTION_MESSAGE_SOURCE, TRANSLATE_PREFS_KEY } from '../shared/utils/sider-settings.ts';

/**
 * The page translator, injected into the user's tab on first use (shared/platform/page-translate.ts:
 * the side panel's and the popup's "Translate page", the page's context menu, Alt+A, a site always
 * translated). The engine is shared/utils/page-translate/engine.ts; this file ties it to the background
 * (which calls the server with the user's token: the page cannot) and to the in-page bar. Injected
 * again, it toggles: the second time shows the original. WXT ends the bundle with main's result,
 * which is what executeScript resolves with.
 */

type Running = { translator: PageTranslator; bar: Bar; stop(): void };
type Globals = { __tandemTranslateConfig?: PageTranslatorConfig; __tandemPageTranslator?: Running };

class TranslateRefused extends Error {
  constructor(readonly code: Extract<PageTranslatorReply, { ok: false }>['code']) {
    super(code);
  }
}

async function ask(message: object): Promise<PageTranslatorReply> {
  const reply = (await browser.runtime.sendMessage({ source: PAGE_TRANSLATOR_SOURCE, ...message })) as PageTranslatorReply | undefined;
  if (!reply || typeof reply !== 'object') return { ok: false, code: 'failed', message: 'no answer' };
  return reply;
}

/** The text of the blocks on screen now, for the price shown before the page is translated. */
function visibleSegments(target: TranslateLanguage): string[] {
  const { blocks } = findBlocks(document.body, target, { deadline: performance.now() + 15 });
  const segments: string[] = [];
  let chars = 0;
  for (const block of blocks) {
    const rect = block.getBoundingClientRect();
    if (rect.bottom < 0 || rect.top > innerHeight || rect.height === 0) continue;
    const text = serializeBlock(block).text;
    if (chars + text.length > 12_000 || segments.length >= 60) break;
    segments.push(text);
    chars += text.length;
  }
  return segments;
}

/** "Don't ask again": TranslatePrefs.askFirst off, the other fields kept (this tab's script may write the extension's storage). */
async function stopAsking(): Promise<void> {
  const stored = (await browser.storage.local.get(TRANSLATE_PREFS_KEY))[TRANSLATE_PREFS_KEY] as { v?: number; value?: object } | undefined;
  const value = stored?.v === 1 && typeof stored.value === 'object' ? stored.value : {};
  await browser.storage.local.set({ [TRANSLATE_PREFS_KEY]: { v: 1, value: { ...value, askFirst: false } } });
}

function start(config: PageTranslatorConfig): Running {
  const target = config.targetLanguage as TranslateLanguage;
  const s = pageStringsFor(config.language);
  // eslint-disable-next-line prefer-const -- assigned once the translator exists; `stop` reads it later
  let running: Running;
  const stop = () => {
    running.translator.restore();
    running.bar.remove();
    if (globals.__tandemPageTranslator === running) delete globals.__tandemPageTranslator;
  };
  /** What the translations so far cost (the server's price of each batch), shown as they come. */
  let spent = 0;
  const begin = () => {
    bar.started();
    translator.start();
  };
  const bar = createBar(document, s, 'ltr', {
    showOriginal: stop,
    translate(dontAsk) {
      if (dontAsk) void stopAsking().catch(() => undefined);
      begin();
    },
    site(list) {
      void ask({ type: 'site', list, host: location.host.toLowerCase() }).catch(() => undefined);
      if (list === 'never') stop();
    },
    signIn() {
      // Sent in the click's task: the background opens the side panel within the user's gesture.
      browser.runtime.sendMessage({ source: SELECTION_MESSAGE_SOURCE, type: 'openPanel' }).catch(() => undefined);
    },
  });
  const translator = new PageTranslator({
    document,
    targetLanguage: target,
    display: config.display,
    async translate(segments) {
      const reply = await ask({ type: 'translate', targetLanguage: target, segments });
      if (!reply.ok) throw new TranslateRefused(reply.code);
      spent += reply.cost;
      if (translator.running) bar.estimate(s.spent.replace('{n}', String(spent)));
      return reply;
    },
    onTranslated: () => bar.status(s.translated),
    // The server's rate limit: the engine waits and asks again.
    isBusy: (error) => error instanceof TranslateRefused && error.code === 'busy',
    onError(error) {
      const code = error instanceof TranslateRefused ? error.code : 'failed';
      bar.problem(code === 'signedOut' ? s.signedOut : code === 'noPoints' ? s.noPoints : s.failed, code === 'signedOut');
    },
  });
  running = { translator, bar, stop };
  // Asked for (not a site always translated, nor "Don't ask again"): the price of what is on screen
  // first (an estimate: nothing translated, nothing charged), and nothing more until the user's Translate.
  if (!config.ask) {
    begin();
    return running;
  }
  bar.ask();
  const segments = visibleSegments(target);
  if (segments.length) {
    void ask({ type: 'translate', targetLanguage: target, segments, estimate: true })
      .then((reply) => {
        if (!translator.running || spent > 0) return;
        if (reply.ok) bar.estimate(s.estimate.replace('{n}', String(reply.cost)));
        else if (reply.code === 'signedOut' || reply.code === 'noPoints') bar.problem(reply.code === 'signedOut' ? s.signedOut : s.noPoints, reply.code === 'signedOut');
      })
      .catch(() => undefined);
  } else bar.estimate('');
  return running;
}

const globals = globalThis as Globals;

export default defineUnlistedScript((): PageTranslationState => {
  const config = globals.__tandemTranslateConfig;
  delete globals.__tandemTranslateConfig;
  const current = globals.__tandemPageTranslator;
  if (current) {
    if (config?.mode === 'start') return 'translated';
    current.stop();
    return 'original';
  }
  if (!config) return 'original';
  globals.__tandemPageTranslator = start(config);
  return 'translated';
});
