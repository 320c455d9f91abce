import { MantineProvider } from '@mantine/core';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next, { type i18n } from 'i18next';
import { lazy, useState, type ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PageSuspense } from '../../../components/layout/page-suspense.tsx';
import { deferred } from '../../../components/ui/deferred.tsx';
import { CHUNK_RELOAD_KEY, ErrorBoundary, isChunkLoadError, lazyPiece } from '../../../components/ui/error-boundary.tsx';
import en from '../../../locales/en.json';
import zh from '../../../locales/zh.json';
import { renderInApp } from '../../helpers/render-app.tsx';

/**
 * A screen whose chunk does not arrive, or whose code throws, shows a way out instead of a blank
 * page: Reload for a chunk (after one automatic reload), Retry and Copy report for a render error.
 * The chunks fail the way browsers fail them: a rejected dynamic import with the browser's message.
 */
let english: i18n;
let chinese: i18n;

beforeAll(async () => {
  english = i18next.createInstance();
  await english.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });
  chinese = i18next.createInstance();
  await chinese.use(initReactI18next).init({ lng: 'zh', resources: { zh: { translation: zh } }, interpolation: { escapeValue: false } });
});

beforeEach(() => {
  window.sessionStorage.clear();
  // React reports every caught error on the console; the boundary's own line is expected here.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function renderIn(ui: ReactNode, language: i18n = english) {
  return render(
    <I18nextProvider i18n={language}>
      <MantineProvider>{ui}</MantineProvider>
    </I18nextProvider>,
  );
}

/** A lazy screen whose chunk request failed the way Chromium reports it. */
function failedChunk(message = 'Failed to fetch dynamically imported module: http://127.0.0.1/chunks/settings-page-1a2b3c.js') {
  return lazy<() => ReactNode>(() => Promise.reject(new TypeError(message)));
}

describe('the browsers’ chunk failures', () => {
  it('are told apart from code that threw', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: https://x/chunks/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: https://x/chunks/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(Object.assign(new Error('Loading chunk 42 failed.'), { name: 'ChunkLoadError' }))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /chunks/a.css'))).toBe(true);
    expect(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'map')"))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });
});

describe('a page whose chunk does not arrive', () => {
  it('reloads itself once, leaving a marker so it never loops', async () => {
    const Page = failedChunk();
    renderIn(
      <PageSuspense>
        <Page />
      </PageSuspense>,
    );
    expect(await screen.findByRole('button', { name: 'Reload' })).toBeTruthy();
    // The automatic reload was asked for (jsdom does not navigate): its marker is set.
    expect(Number(window.sessionStorage.getItem(CHUNK_RELOAD_KEY))).toBeGreaterThan(Date.now() - 60_000);
  });

  it('after a recent automatic reload, shows Reload instead of reloading again', async () => {
    const marker = String(Date.now() - 60_000);
    window.sessionStorage.setItem(CHUNK_RELOAD_KEY, marker);
    const Page = failedChunk('Importing a module script failed.');
    renderIn(
      <PageSuspense>
        <Page />
      </PageSuspense>,
    );
    expect(await screen.findByText('This part of Tandem could not load')).toBeTruthy();
    expect(screen.getByText(/Reload to get the latest version/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(window.sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBe(marker);
  });

  it('says so in Chinese in the Chinese interface', async () => {
    window.sessionStorage.setItem(CHUNK_RELOAD_KEY, String(Date.now()));
    const Page = failedChunk();
    renderIn(
      <PageSuspense>
        <Page />
      </PageSuspense>,
      chinese,
    );
    expect(await screen.findByText('这部分内容没能加载')).toBeTruthy();
    expect(screen.getByRole('button', { name: '重新加载' })).toBeTruthy();
  });
});

describe('a piece of a page whose chunk does not arrive', () => {
  it('a deferred piece (a dialog’s code) shows a small notice and leaves the page usable', async () => {
    window.sessionStorage.setItem(CHUNK_RELOAD_KEY, String(Date.now()));
    const Dialog = deferred<{ opened: boolean }>(() => Promise.reject(new TypeError('error loading dynamically imported module: http://127.0.0.1/chunks/modal.js'))).Component;
    renderIn(
      <main>
        <h1>Chat</h1>
        <Dialog opened={false} />
      </main>,
    );
    expect(await screen.findByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Chat' })).toBeTruthy();
  });

  it('a settings section that fails leaves the other sections in place', async () => {
    window.sessionStorage.setItem(CHUNK_RELOAD_KEY, String(Date.now()));
    const Broken = lazyPiece<() => ReactNode>(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1/chunks/invite.js')));
    const Fine = lazyPiece(() => Promise.resolve({ default: () => <p>Points section</p> }));
    renderIn(
      <PageSuspense>
        <Fine />
        <Broken />
      </PageSuspense>,
    );
    expect(await screen.findByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(screen.getByText('Points section')).toBeTruthy();
  });
});

/** Throws while `broken` is set: a screen with a bug, which Retry gets past once the cause is gone. */
let broken = true;
function Flaky() {
  if (broken) throw new TypeError("Cannot read properties of undefined (reading 'balance')");
  return <p>Balance: 120</p>;
}

describe('a screen that throws while rendering', () => {
  beforeEach(() => {
    broken = true;
  });

  it('shows what failed, without a stack, and Retry renders it again', async () => {
    renderIn(
      <ErrorBoundary>
        <Flaky />
      </ErrorBoundary>,
    );
    expect(screen.getByText('Something went wrong on this screen')).toBeTruthy();
    expect(screen.getByText("Details: Cannot read properties of undefined (reading 'balance')")).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/at Flaky|\.tsx:\d+/);
    // A render error is no reason to reload the page.
    expect(window.sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBeNull();

    broken = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(screen.getByText('Balance: 120')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('Copy report puts a plain-text report of the error, surface, version and path on the clipboard', async () => {
    const user = userEvent.setup();
    renderIn(
      <ErrorBoundary>
        <Flaky />
      </ErrorBoundary>,
    );
    await user.click(screen.getByRole('button', { name: 'Copy report' }));
    expect(await screen.findByRole('button', { name: 'Report copied' })).toBeTruthy();
    const report = await navigator.clipboard.readText();
    expect(report).toContain('Tandem error report');
    expect(report).toContain('Surface: web app');
    expect(report).toMatch(/^Version: /m);
    expect(report).toContain(`Path: ${window.location.pathname}`);
    expect(report).toContain("Error: TypeError: Cannot read properties of undefined (reading 'balance')");
    expect(report).not.toMatch(/at Flaky/);
  });

  it('a route boundary starts afresh at the next address', async () => {
    function Routes() {
      const [path, setPath] = useState('/setting');
      return (
        <>
          <button type="button" onClick={() => setPath('/')}>
            Home
          </button>
          <ErrorBoundary resetKey={path}>{path === '/setting' ? <Flaky /> : <p>Chat</p>}</ErrorBoundary>
        </>
      );
    }
    renderIn(<Routes />);
    expect(screen.getByRole('alert')).toBeTruthy();
    await act(async () => screen.getByRole('button', { name: 'Home' }).click());
    await waitFor(() => expect(screen.getByText('Chat')).toBeTruthy());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows its message in Chinese', () => {
    renderIn(
      <ErrorBoundary>
        <Flaky />
      </ErrorBoundary>,
      chinese,
    );
    expect(screen.getByText('这个页面出错了')).toBeTruthy();
    expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '复制报告' })).toBeTruthy();
  });
});

describe('every page’s provider stack', () => {
  beforeEach(() => {
    broken = true;
  });

  it('is the last way out of a page with no nearer boundary (popup, login page, console)', async () => {
    // No request is made: the address only has to be one.
    await renderInApp(<Flaky />, { apiBase: 'http://127.0.0.1:9' });
    expect(await screen.findByText('Something went wrong on this screen')).toBeTruthy();
    broken = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(screen.getByText('Balance: 120')).toBeTruthy();
  });
});
