import { Alert, Center, Loader } from '@mantine/core';
import { useAtomValue, useSetAtom, useStore } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerUnreachableError } from '../../shared/api/request.ts';
import { authActionAtom, tokenPersisted } from '../../shared/atoms/auth.ts';
import { closeLoginDialogAtom, loginDialogAtom } from '../../shared/atoms/login-dialog.ts';
import { LoginFrameMessageSchema } from '../../shared/contracts/login-frame.ts';
import { peekPersisted } from '../../shared/storage/active.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { ServerUnreachableNotice } from '../app-shell/server-unreachable-notice.ts';
import { useSystemSetting } from '../app-shell/system-settings.ts';
import { notifyError, notifySuccess } from '../ui/notify.ts';
import { Drawer, Modal } from '../ui/overlays.tsx';
import { loginFailureMessage, loginWithTempKey } from './login-actions.ts';

/** The token is looked for every second while the dialog is open. */
export const LOGIN_POLL_MS = 1000;
/** The frame's height until the login page has told the height of its content. */
const FRAME_HEIGHT = { drawer: 440, dialog: 480 };
/** A login page that never tells its height (an operator's own) is shown at FRAME_HEIGHT this long after it loaded. */
const REVEAL_WITHOUT_HEIGHT_MS = 1500;

export interface LoginDialogProps {
  /** After a login: the app goes to /. */
  onLoggedIn: () => void;
}

/**
 * The frame's sandbox when the login page is on another origin than this page (the extension's
 * pages): scripts and forms for the page itself, same-origin so it keeps its own storage. On its own
 * origin (the web app served by the login page's server) a sandbox with scripts and same-origin can
 * be lifted by the framed page and guards nothing (the browser says so in the console): none.
 */
function frameSandbox(loginUrl: string): string | undefined {
  try {
    if (new URL(loginUrl, window.location.href).origin === window.location.origin) return undefined;
  } catch {
    // An address that does not parse keeps the sandbox; the frame shows the browser's error.
  }
  return 'allow-scripts allow-forms allow-same-origin allow-popups';
}

/**
 * The login dialog (a bottom drawer on mobile) around the central login page in a sandboxed frame.
 * Only messages from the login page's origin and from that frame are read. A login made elsewhere
 * (another tab, the extension) is noticed by polling the token.
 */
export function LoginDialog({ onLoggedIn }: LoginDialogProps) {
  const { t } = useTranslation();
  const { isH5 } = usePlatform();
  const state = useAtomValue(loginDialogAtom);
  const close = useSetAtom(closeLoginDialogAtom);
  const store = useStore();
  const loginUrl = useSystemSetting('login_page_url');
  const frame = useRef<HTMLIFrameElement>(null);
  const [busy, setBusy] = useState(false);
  const tokenAtOpen = useRef<string | null>(null);
  // A new frame each opening or address: it has not said its height yet.
  const fit = useFrameHeight(`${state.open} ${loginUrl.value ?? ''}`);

  // Every opening loads the frame afresh: the Modal and Drawer unmount their content
  // when closed, so each opening mounts a new frame.
  useEffect(() => {
    if (state.open) tokenAtOpen.current = peekPersisted(tokenPersisted);
  }, [state.open]);

  const finish = () => {
    close();
    onLoggedIn();
  };

  useEffect(() => {
    if (!state.open || !loginUrl.value) return;
    let origin: string;
    try {
      origin = new URL(loginUrl.value, window.location.href).origin;
    } catch {
      return;
    }
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== origin || event.source !== frame.current?.contentWindow) return;
      const message = LoginFrameMessageSchema.safeParse(event.data);
      if (!message.success) return;
      if (message.data.type === 'resize') return fit.setHeight(message.data.height);
      if (message.data.type === 'not-logged-in') {
        if (peekPersisted(tokenPersisted) !== null) void store.set(authActionAtom, { type: 'logout' });
        return;
      }
      setBusy(true);
      loginWithTempKey(store, message.data.tempKey).then(
        () => {
          notifySuccess(t('login.succeeded'));
          finish();
        },
        (error: unknown) => notifyError(loginFailureMessage(error)),
      ).finally(() => setBusy(false));
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
    // finish only closes and navigates; re-subscribing on each render is not needed.
  }, [state.open, loginUrl.value, store, t]);

  // A token that appears while the dialog is open (logged in from the extension or another tab).
  useEffect(() => {
    if (!state.open) return;
    const timer = setInterval(() => {
      const current = peekPersisted(tokenPersisted);
      if (current !== null && current !== tokenAtOpen.current) finish();
    }, LOGIN_POLL_MS);
    return () => clearInterval(timer);
  }, [state.open]);

  const body = (
    <>
      {state.notice && (
        <Alert variant="light" color="primary" p={8} mb={8} data-testid="login-notice">
          {t(state.notice)}
        </Alert>
      )}
      {loginUrl.isError &&
        (loginUrl.error instanceof ServerUnreachableError ? <ServerUnreachableNotice.Component error={loginUrl.error} /> : <Alert color="red">{t('request.networkError')}</Alert>)}
      {loginUrl.value ? (
        <div style={{ position: 'relative' }}>
          <iframe
            ref={frame}
            src={loginUrl.value}
            title={t('login.frameTitle')}
            sandbox={frameSandbox(loginUrl.value)}
            onLoad={fit.loaded}
            data-fitted={fit.height !== null || undefined}
            // Hidden until the page has said its height, so the sheet opens at its size and does not move under the pointer.
            style={{ width: '100%', height: fit.height ?? (isH5 ? FRAME_HEIGHT.drawer : FRAME_HEIGHT.dialog), border: 0, display: 'block', visibility: fit.shown ? undefined : 'hidden' }}
          />
          {(busy || !fit.shown) && (
            <Center style={{ position: 'absolute', inset: 0, background: 'light-dark(rgba(255, 255, 255, 0.7), rgba(36, 36, 36, 0.7))' }}>
              <Loader size="sm" />
            </Center>
          )}
        </div>
      ) : (
        !loginUrl.isError && (
          <Center h={200}>
            <Loader size="sm" />
          </Center>
        )
      )}
    </>
  );

  return isH5 ? (
    // The sheet is as tall as what it holds (no empty band under the page), the window at most (then it scrolls).
    <Drawer opened={state.open} onClose={close} position="bottom" styles={{ content: { height: 'auto' } }} title={t('login.title')}>
      {body}
    </Drawer>
  ) : (
    <Modal opened={state.open} onClose={close} title={t('login.title')} size={440} centered>
      {body}
    </Modal>
  );
}

/**
 * The frame's height as the login page tells it (null until it has), and whether the frame is shown:
 * once it has a height, or a moment after a page that never tells one has loaded. Both start over
 * when `frameKey` changes (another frame).
 */
function useFrameHeight(frameKey: string) {
  const [height, setHeight] = useState<number | null>(null);
  const [timedOut, setTimedOut] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => {
    setHeight(null);
    setTimedOut(false);
    return () => clearTimeout(timer.current);
  }, [frameKey]);
  const loaded = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setTimedOut(true), REVEAL_WITHOUT_HEIGHT_MS);
  };
  return { height, setHeight, shown: height !== null || timedOut, loaded };
}
