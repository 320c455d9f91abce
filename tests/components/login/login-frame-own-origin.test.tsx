import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LoginDialog } from '../../../components/login/login-dialog.tsx';
import { openLoginDialogAtom } from '../../../shared/atoms/login-dialog.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

const OWN_LOGIN_URL = `${window.location.origin}/login`;
const server = serveTheseTests(fakeApi({ '/api/System/GetSettingListAll': answer([{ settingKey: 'login_page_url', settingValue: OWN_LOGIN_URL }]) }));

describe('the login frame on its own origin (the web app)', () => {
  it('has no sandbox: with scripts and same-origin the page could lift it, and the browser warns of that in the console', async () => {
    const { store } = await renderInApp(<LoginDialog onLoggedIn={vi.fn()} />, { apiBase: server.url, user: null, platform: { isH5: false } });
    act(() => store.set(openLoginDialogAtom));
    const frame = (await screen.findByTitle('Tandem login')) as HTMLIFrameElement;
    expect(frame.getAttribute('src')).toBe(OWN_LOGIN_URL);
    expect(frame).not.toHaveAttribute('sandbox');
  });
});
