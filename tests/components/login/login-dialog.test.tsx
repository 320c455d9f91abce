import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LoginDialog } from '../../../components/login/login-dialog.tsx';
import { openLoginDialogAtom } from '../../../shared/atoms/login-dialog.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

const LOGIN_URL = 'https://login.example.com/login';
const server = serveTheseTests(fakeApi({ '/api/System/GetSettingListAll': answer([{ settingKey: 'login_page_url', settingValue: LOGIN_URL }]) }));

/** The login page's frame in the open dialog (a bottom sheet on a phone, a dialog on a desktop). */
async function openDialog(isH5: boolean): Promise<HTMLIFrameElement> {
  const { store } = await renderInApp(<LoginDialog onLoggedIn={vi.fn()} />, { apiBase: server.url, user: null, platform: { isH5 } });
  act(() => store.set(openLoginDialogAtom));
  const frame = (await screen.findByTitle('Tandem login')) as HTMLIFrameElement;
  expect(frame.getAttribute('src')).toBe(LOGIN_URL);
  return frame;
}

function post(frame: HTMLIFrameElement, data: unknown, from: { origin?: string; source?: MessageEventSource | null } = {}) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin: from.origin ?? 'https://login.example.com', source: from.source === undefined ? frame.contentWindow : from.source }));
  });
}

describe('the login frame takes the height its page tells', () => {
  for (const [surface, isH5, initial] of [
    ['bottom sheet', true, '440px'],
    ['dialog', false, '480px'],
  ] as const) {
    it(`in the ${surface}: hidden until the page says its height, then exactly that tall, following each change`, async () => {
      const frame = await openDialog(isH5);
      expect(frame.style.height).toBe(initial);
      expect(frame.style.visibility).toBe('hidden');
      expect(frame).not.toHaveAttribute('data-fitted');

      post(frame, { type: 'resize', height: 612 });
      await waitFor(() => expect(frame.style.height).toBe('612px'));
      expect(frame.style.visibility).toBe('');
      expect(frame).toHaveAttribute('data-fitted', 'true');

      // An error shown, a tab switched: the frame follows.
      post(frame, { type: 'resize', height: 700 });
      await waitFor(() => expect(frame.style.height).toBe('700px'));
    });
  }

  it('ignores heights from another origin, another window or out of bounds', async () => {
    const frame = await openDialog(true);
    post(frame, { type: 'resize', height: 900 }, { origin: 'https://evil.example.com' });
    post(frame, { type: 'resize', height: 900 }, { source: window });
    post(frame, { type: 'resize', height: 99_999 });
    post(frame, { type: 'resize', height: -5 });
    // Each message is handled as it is posted (inside act): nothing is left pending to wait for.
    expect(frame.style.height).toBe('440px');
    expect(frame.style.visibility).toBe('hidden');
  });

  it('shows a page that never tells its height at the usual height once it has loaded', async () => {
    const frame = await openDialog(false);
    vi.useFakeTimers();
    try {
      act(() => void frame.dispatchEvent(new Event('load')));
      await act(() => vi.advanceTimersByTimeAsync(1500));
      expect(frame.style.visibility).toBe('');
      expect(frame.style.height).toBe('480px');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the login frame sandbox', () => {
  // Its own origin, where it has none: login-frame-own-origin.test.tsx (the settings are cached per file).
  it('sandboxes a login page of another origin (the extension frames the server)', async () => {
    const frame = await openDialog(false);
    expect(frame.getAttribute('sandbox')?.split(' ').sort()).toEqual(['allow-forms', 'allow-popups', 'allow-same-origin', 'allow-scripts']);
  });
});
