import type { QueryClient } from '@tanstack/react-query';
import type { i18n } from 'i18next';
import { createStore } from 'jotai';
import { visitorIdPersisted } from '../../shared/api/driver-id.ts';
import { lastModelListPersisted } from '../../shared/api/model-list-cache.ts';
import { onUnauthorized, setApiBase } from '../../shared/api/request.ts';
import { startRequestTracking } from '../../shared/api/tracking.ts';
import { sendMonitoringCall } from '../../shared/api/monitoring.ts';
import { startErrorReporting } from '../../shared/api/client-error-capture.ts';
import { ApiError } from '../../shared/api/request.ts';
import { Codes } from '../../shared/contracts/envelope.ts';
import { overridesPersisted, startTranslationOverrides } from '../../shared/i18n/overrides.ts';
import { authActionAtom, authPersisted } from '../../shared/atoms/auth.ts';
import { chatModelPersisted, webSearchPersisted } from '../../shared/atoms/chat.ts';
import { openLoginDialogAtom } from '../../shared/atoms/login-dialog.ts';
import { chatPluginsPersisted } from '../../shared/atoms/plugin.ts';
import { initI18n } from '../../shared/i18n/i18n.ts';
import { browserLanguages, languagePersisted } from '../../shared/i18n/language.ts';
import { detectPlatform, type Platform, type PlatformProbe, type TabAccess } from '../../shared/platform/platform.ts';
import { apiBaseFor, serverUrlPersisted } from '../../shared/platform/server-url.ts';
import type { StorageAdapter } from '../../shared/storage/adapter.ts';
import { installStorage, loadPersisted, peekPersisted, watchPersisted } from '../../shared/storage/active.ts';
import type { Persisted } from '../../shared/storage/persisted.ts';
import { storageFor } from '../../shared/storage/for-platform.ts';
import { colorSchemePersisted } from './color-scheme.ts';
import { createQueryClient } from './query-client.ts';

export type JotaiStore = ReturnType<typeof createStore>;

export interface StartedApp {
  platform: Platform;
  store: JotaiStore;
  queryClient: QueryClient;
  i18n: i18n;
  /** Undoes the subscriptions start-up made (tracking, unauthorized handler, server URL watch). */
  stop(): void;
}

export interface StartOptions {
  /** Defaults read the running page; tests pass their own. */
  probe?: PlatformProbe;
  storage?: StorageAdapter;
  languages?: readonly string[];
  /** The browser's tabs, given by extension entrypoints (shared/platform/extension.ts). */
  tabs?: TabAccess;
}

/**
 * The start-up sequence every entrypoint runs before rendering. The order matters: storage must be
 * installed before anything reads a persisted value, and the persisted values must be in the cache
 * before the first render, or a logged-in user would see a logged-out flash.
 */
export async function startApp(options: StartOptions = {}): Promise<StartedApp> {
  const platform: Platform = { ...detectPlatform(options.probe), tabs: options.tabs ?? null };
  installStorage(options.storage ?? storageFor(platform));
  const [chosenServer] = await Promise.all([
    loadPersisted(serverUrlPersisted),
    loadPersisted(languagePersisted),
    // The first screen's (the last model list, the colour scheme) and the first call's (the visitor id of its DriverId header) too.
    Promise.all(
      [...authPersisted, chatModelPersisted, webSearchPersisted, chatPluginsPersisted, lastModelListPersisted, visitorIdPersisted, colorSchemePersisted, overridesPersisted].map((declaration) =>
        loadPersisted(declaration as Persisted<unknown>),
      ),
    ),
  ]);
  const i18n = await initI18n(options.languages ?? browserLanguages());
  setApiBase(apiBaseFor(platform.isExtension, chosenServer));
  // The server may be changed in the settings of another extension page while this one is open.
  const stopServerWatch = watchPersisted(serverUrlPersisted, (chosen) => setApiBase(apiBaseFor(platform.isExtension, chosen)));
  const stopTracking = startRequestTracking();
  void sendMonitoringCall();
  const stopErrorReporting = startErrorReporting(window, import.meta.env.WXT_APP_VERSION ?? null);
  const stopOverrides = loadTranslationOverrides(i18n);

  const store = createStore();
  const stopUnauthorized = onUnauthorized(() => {
    // The request helper has cleared the token; the rest of the stale login goes with it.
    void store.set(authActionAtom, { type: 'logout' });
    store.set(openLoginDialogAtom, 'chat.notLoginTip');
  });

  return {
    platform,
    store,
    queryClient: createQueryClient(),
    i18n,
    stop() {
      stopUnauthorized();
      stopTracking();
      stopErrorReporting();
      stopOverrides();
      stopServerWatch();
    },
  };
}

/**
 * The operators' overrides of the built-in strings: the stored ones at once (before the first
 * render), fresh ones in the background for English (the fallback) and the language shown, and for
 * a language switched to later. A server that answers with a Code (an older server without the
 * route) is not asked again; a network or server failure is retried (shared/i18n/overrides.ts).
 */
function loadTranslationOverrides(i18n: i18n): () => void {
  const overrides = startTranslationOverrides(
    i18n,
    // The call (and its contract) is a chunk of its own: the stored overrides apply before it loads.
    (language, version) =>
      import('../../shared/api/language.ts').then(({ getLanguageOverrides }) => getLanguageOverrides(language, version)).catch((err: unknown) => {
        if (err instanceof ApiError && err.code !== Codes.ServerError && !err.status) throw Object.assign(err, { final: true });
        throw err;
      }),
    peekPersisted(overridesPersisted),
  );
  const load = (language: string) => void overrides.load(language === 'zh' ? 'zh' : 'en');
  load('en');
  load(i18n.language);
  i18n.on('languageChanged', load);
  return () => {
    i18n.off('languageChanged', load);
    overrides.stop();
  };
}
