import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import i18next from 'i18next';
import { afterAll, afterEach, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';

// findBy* and waitFor give up after 1 s by default. CI runs the client and server suites side by
// side on two cores, where a render and a request to the test server can take longer than that (a
// first render that loads lazy chunks took over 5 s on a loaded machine). A wait that succeeds ends
// as soon as it does, so a longer limit costs passing tests nothing.
configure({ asyncUtilTimeout: 10_000 });

// Testing Library unmounts between tests only when the test API is global; it is not here.
afterEach(() => cleanup());

// jsdom has no layout: Mantine needs these two. They answer "no match" and never
// report a size, as a page without media features or layout would.
if (typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (typeof window.ResizeObserver !== 'function') {
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// jsdom has no IntersectionObserver: this one reports only when a test calls
// `intersectAll()` (tests/helpers/intersection.ts), as if every observed element scrolled into view.
if (typeof window.IntersectionObserver !== 'function') {
  const observers = new Set<{ callback: IntersectionObserverCallback; targets: Set<Element>; self: IntersectionObserver }>();
  (globalThis as { __intersectAll?: () => void }).__intersectAll = () => {
    for (const o of [...observers]) {
      const entries = [...o.targets].map((target) => ({ target, isIntersecting: true, intersectionRatio: 1 }) as unknown as IntersectionObserverEntry);
      if (entries.length > 0) o.callback(entries, o.self);
    }
  };
  window.IntersectionObserver = class {
    private entry: { callback: IntersectionObserverCallback; targets: Set<Element>; self: IntersectionObserver };
    root = null;
    rootMargin = '';
    thresholds = [];
    constructor(callback: IntersectionObserverCallback) {
      this.entry = { callback, targets: new Set(), self: this as unknown as IntersectionObserver };
      observers.add(this.entry);
    }
    observe(target: Element) {
      this.entry.targets.add(target);
    }
    unobserve(target: Element) {
      this.entry.targets.delete(target);
    }
    disconnect() {
      observers.delete(this.entry);
    }
    takeRecords() {
      return [];
    }
  } as unknown as typeof IntersectionObserver;
}

// Mantine's autosize Textarea listens for web fonts loading; jsdom has no document.fonts.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget(), configurable: true });
}

// jsdom's Blob (and File) has no stream(), which Node's fetch reads a FormData's files with: without
// it a multipart upload never finishes. Browsers have it; this one streams the bytes in one chunk.
if (typeof Blob.prototype.stream !== 'function') {
  Blob.prototype.stream = function stream(this: Blob) {
    const bytes = this.arrayBuffer();
    return new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new Uint8Array(await bytes));
        controller.close();
      },
    }) as ReturnType<Blob['stream']>;
  };
}

// The client files share their workers' modules and globals (vitest.config.ts: isolate is off for
// speed): after each file, what a file may have changed outside itself is put back.
afterAll(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  // WxtVitest's setup stubs these once per worker; put them back for the next file.
  vi.stubGlobal('chrome', fakeBrowser);
  vi.stubGlobal('browser', fakeBrowser);
  vi.unstubAllEnvs();
  notifications.clean();
  notifications.cleanQueue();
  localStorage.clear();
  sessionStorage.clear();
  fakeBrowser.reset();
  if (i18next.isInitialized && i18next.language !== 'en') await i18next.changeLanguage('en');
  document.body.innerHTML = '';
  document.title = '';
  document.documentElement.removeAttribute('lang');
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0].trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  window.history.replaceState(null, '', '/');
  // The project's own modules start afresh in the next file (module-level caches, loaded-once flags,
  // running polls); the libraries under node_modules stay loaded, which is where the time went.
  vi.resetModules();
});
