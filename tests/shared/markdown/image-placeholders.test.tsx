import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { MarkdownView } from '../../../components/ui/markdown-view.tsx';
import { setApiBase } from '../../../shared/api/request.ts';
import { tokenPersisted } from '../../../shared/atoms/auth.ts';
import { installStorage, writePersisted } from '../../../shared/storage/active.ts';
import { createWebStorage } from '../../../shared/storage/web.ts';
import { TINY_PNG } from '../../fixtures/fake-images.ts';
import { sendEnvelope, startTestServer, type TestServer } from '../../helpers/http-server.ts';

/**
 * The answer's image placeholders in the view (shared/markdown/image-placeholders.ts): nothing loads
 * until a click, which asks the server's proxy (signed in) and shows the image in place of the
 * button, also after the block is rendered again; a refusal is shown and can be retried; Tandem's own
 * images load with no click. docs/security.md.
 */

const i18n = i18next.createInstance();
let server: TestServer;
/** What the proxy answers next: an image, or a refusal. */
let refuse: string | null = null;
let objectUrls = 0;

beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: 'en',
    resources: { en: { translation: { markdown: { copyCode: 'Copy code', copied: 'Copied', remoteImage: 'Load image from {{host}}' } } } },
  });
  server = await startTestServer((req, res) => {
    if (req.url.startsWith('/api/Chat/ProxyImage?') && refuse) return sendEnvelope(res, { Code: 10422, Msg: refuse });
    if (req.url.startsWith('/api/Chat/ProxyImage?') || req.url.startsWith('/api/Chat/GetChatMedia?')) {
      return void res.writeHead(200, { 'content-type': 'image/png' }).end(TINY_PNG);
    }
    sendEnvelope(res, { Code: 10404, Msg: 'not found' });
  });
  // jsdom has no object URLs.
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:tandem/${++objectUrls}`);
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
});
afterAll(async () => {
  await server.close();
  vi.restoreAllMocks();
});
/** Every call the view makes, seen as it is made (the server sees it a moment later). */
let fetchSpy: MockInstance<typeof fetch>;

beforeEach(async () => {
  fetchSpy?.mockRestore();
  fetchSpy = vi.spyOn(globalThis, 'fetch');
  server.requests.length = 0;
  refuse = null;
  localStorage.clear();
  installStorage(createWebStorage());
  await writePersisted(tokenPersisted, 'test-token');
  setApiBase(server.url);
});
afterEach(cleanup);

const wrap = (node: ReactNode) => <I18nextProvider i18n={i18n}>{node}</I18nextProvider>;
const proxied = () => server.requests.filter((r) => r.url.startsWith('/api/Chat/ProxyImage?'));
const proxiedUrls = () => proxied().map((r) => new URL(r.url, 'http://x').searchParams.get('url'));

describe('image placeholders in the view', () => {
  it('load nothing until clicked, then through the proxy, and the image stays while its block grows', async () => {
    // Unique addresses per test: loaded images are remembered for the page's life.
    const text = 'See ![a chart](https://evil.example/one.png?q=secret) and';
    const { container, rerender } = render(wrap(<MarkdownView text={text} streaming />));
    const button = screen.getByRole('button', { name: 'Load image from evil.example' });
    expect(container.querySelector('img')).toBeNull();
    // Whatever the view fetches by itself it asks for while it renders and runs its effects.
    await act(async () => {});
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(server.requests).toEqual([]);

    await userEvent.click(button);
    const image = await waitFor(() => {
      const shown = container.querySelector<HTMLImageElement>('.md-image img');
      expect(shown).not.toBeNull();
      return shown!;
    });
    expect(image.getAttribute('src')).toMatch(/^blob:tandem\//);
    expect(image.alt).toBe('a chart');
    expect(proxiedUrls()).toEqual(['https://evil.example/one.png?q=secret']);
    expect(proxied()[0].headers.authorization).toBe('Bearer test-token');

    // The growing block is patched again: the image is put back at once, with no new request.
    rerender(wrap(<MarkdownView text={`${text} more words`} streaming />));
    expect(container.querySelector('.md-image img')?.getAttribute('src')).toBe(image.getAttribute('src'));
    rerender(wrap(<MarkdownView text={`${text} more words.`} />));
    expect(container.querySelector('.md-image img')).not.toBeNull();
    expect(proxied()).toHaveLength(1);
  });

  it('do not follow the link around a badge when clicked', async () => {
    const { container } = render(wrap(<MarkdownView text="[![build](https://badges.example/b.png)](https://ci.example/run)" />));
    let followed: boolean | undefined;
    const onClick = (event: MouseEvent) => void (followed = !event.defaultPrevented);
    window.addEventListener('click', onClick);
    try {
      await userEvent.click(screen.getByRole('button', { name: 'Load image from badges.example' }));
    } finally {
      window.removeEventListener('click', onClick);
    }
    expect(followed).toBe(false);
    await waitFor(() => expect(container.querySelector('a .md-image img')).not.toBeNull());
  });

  it("show the server's refusal, and try again on the next click", async () => {
    refuse = 'This address is not an image that can be shown.';
    const { container } = render(wrap(<MarkdownView text="![x](https://evil.example/page.html)" />));
    const button = screen.getByRole('button', { name: 'Load image from evil.example' });
    await userEvent.click(button);
    expect((await screen.findByRole('alert')).textContent).toBe(refuse);
    expect(button).toBeEnabled();
    expect(container.querySelector('img')).toBeNull();

    refuse = null;
    await userEvent.click(button);
    await waitFor(() => expect(container.querySelector('.md-image img')).not.toBeNull());
    expect(proxied()).toHaveLength(2);
  });

  it("load Tandem's own images (a signed media link of the server in use) with no click", async () => {
    const own = `${server.url}/api/Chat/GetChatMedia?chatMediaId=m1&exp=99&sig=s`;
    const { container } = render(wrap(<MarkdownView text={`![drawn](${own}) and ![other](https://evil.example/two.png)`} />));
    await waitFor(() => expect(container.querySelector('.md-image img')).not.toBeNull());
    expect(server.requests.map((r) => r.url)).toEqual(['/api/Chat/GetChatMedia?chatMediaId=m1&exp=99&sig=s']);
    // The own image was fetched; the other was never asked for. (The client suite shares one module
    // environment, so another file's late balance refresh may pass through this spy: only this
    // server's calls, and any call at all to the foreign host, are counted.)
    const calls = fetchSpy.mock.calls.map(([url]) => String(url));
    expect(calls.filter((url) => url.startsWith(server.url))).toEqual([own]);
    expect(calls.filter((url) => url.includes('evil.example'))).toEqual([]);
    expect(proxied()).toEqual([]);
    expect(container.querySelectorAll('.md-image img')).toHaveLength(1);
  });
});
