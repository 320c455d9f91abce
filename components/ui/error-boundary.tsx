import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { Component, lazy, useState, type ComponentProps, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { reportCaughtError } from '../../shared/utils/caught-errors.ts';

/**
 * What the browsers say when the code of a lazily loaded piece does not arrive (a deploy replaced the
 * chunks while the page was open, a flaky network): Chromium, Firefox, Safari, and Vite's preloader.
 */
const CHUNK_FAILURE =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Failed to load module script|Unable to preload CSS|Loading (CSS )?chunk [\w-]+ failed/i;

/** Whether `error` is a chunk that failed to load, rather than code that threw. */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'ChunkLoadError' || CHUNK_FAILURE.test(error.message);
}

/** The marker of the last automatic reload: at most one per this many minutes, so a broken deploy never loops. */
export const CHUNK_RELOAD_KEY = 'tandem.chunkReloadAt';
const CHUNK_RELOAD_EVERY_MS = 10 * 60_000;

/**
 * After a deploy the page's old chunks are gone: reloading once brings the new ones. Returns whether
 * the page reloads; not again within ten minutes of the last automatic reload (the marker lives in
 * sessionStorage, so it is per tab and survives the reload).
 */
export function reloadOnceForChunk(now = Date.now()): boolean {
  try {
    const last = Number(window.sessionStorage.getItem(CHUNK_RELOAD_KEY));
    if (last && now - last < CHUNK_RELOAD_EVERY_MS) return false;
    window.sessionStorage.setItem(CHUNK_RELOAD_KEY, String(now));
  } catch {
    // No storage (blocked): without a marker an automatic reload could loop, so leave it to the user.
    return false;
  }
  window.location.reload();
  return true;
}

/** Which page this is, for a report: the side panel, popup, web app, login page or console. */
function surfaceName(): string {
  const { pathname } = window.location;
  if (pathname.endsWith('/sidepanel.html')) return 'side panel';
  if (pathname.endsWith('/popup.html')) return 'popup';
  if (pathname.startsWith('/login')) return 'login page';
  if (pathname.startsWith('/admin')) return 'admin console';
  return 'web app';
}

/**
 * The build that is running: its entry script's name carries the build's content hash, which tells
 * one deploy from another where the package version (the same across deploys) would not.
 */
function buildName(): string {
  const src = document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src;
  return src ? (src.split('/').pop() ?? src) : 'unknown';
}

/** The plain-text report the Report button copies: what failed, where, in which build. No stack. */
export function errorReport(error: Error, now = new Date()): string {
  const { pathname, hash } = window.location;
  return [
    'Tandem error report',
    `Surface: ${surfaceName()}`,
    `Version: ${buildName()}`,
    `Path: ${pathname}${hash}`,
    `Time: ${now.toISOString()}`,
    `Error: ${error.name}: ${error.message}`,
    `Browser: ${navigator.userAgent}`,
  ].join('\n');
}

interface FallbackProps {
  error: Error;
  onRetry: () => void;
  /** A small notice in place of a piece of a page, rather than the page's own message. */
  inline: boolean;
}

/** A chunk that did not arrive: only a reload brings it (React keeps a lazy component's failed load). */
function ChunkFailed({ inline }: { inline: boolean }) {
  const { t } = useTranslation();
  return (
    <Alert color="orange" role="alert" m={inline ? 0 : 'md'} title={t('errorBoundary.chunkTitle')}>
      <Stack gap="xs" align="flex-start">
        {inline ? null : <Text size="sm">{t('errorBoundary.chunkText')}</Text>}
        <Button size="xs" onClick={() => window.location.reload()}>
          {t('errorBoundary.reload')}
        </Button>
      </Stack>
    </Alert>
  );
}

/** Copies the report; where the clipboard is refused, shows it to copy by hand. */
function ReportButton({ error }: { error: Error }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'copied' | 'shown'>('idle');
  const report = errorReport(error);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(report);
      setState('copied');
    } catch {
      setState('shown');
    }
  };
  return (
    <>
      <Button size="xs" variant="default" onClick={() => void copy()}>
        {state === 'copied' ? t('errorBoundary.reportCopied') : t('errorBoundary.report')}
      </Button>
      {state === 'shown' ? (
        <Code block aria-label={t('errorBoundary.reportText')} style={{ whiteSpace: 'pre-wrap', width: '100%' }}>
          {report}
        </Code>
      ) : null}
    </>
  );
}

/** Code that threw while rendering: what failed, in a line, and the ways out. */
function RenderFailed({ error, onRetry, inline }: FallbackProps) {
  const { t } = useTranslation();
  return (
    <Alert color="red" role="alert" m={inline ? 0 : 'md'} title={t(inline ? 'errorBoundary.pieceTitle' : 'errorBoundary.renderTitle')}>
      <Stack gap="xs" align="flex-start">
        {inline ? null : <Text size="sm">{t('errorBoundary.renderText')}</Text>}
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t('errorBoundary.details', { message: error.message || error.name })}
        </Text>
        <Group gap="xs">
          <Button size="xs" onClick={onRetry}>
            {t('errorBoundary.retry')}
          </Button>
          <ReportButton error={error} />
        </Group>
      </Stack>
    </Alert>
  );
}

export interface ErrorBoundaryProps {
  children: ReactNode;
  /** When it changes (the address, for a route), a boundary showing a failure starts afresh. */
  resetKey?: unknown;
  /** Around a piece of a page (a section, a dialog's code) rather than a whole page. */
  inline?: boolean;
}

interface ErrorBoundaryState {
  error: Error | null;
  resetKey: unknown;
}

/**
 * A screen or a piece of one that failed says so and offers a way out instead of leaving the page
 * blank: a chunk that did not arrive offers Reload (and reloads by itself once, after a deploy); code
 * that threw shows what failed with Retry and Report. Placed per route and around lazily loaded
 * pieces (docs/architecture.md#when-a-screen-fails).
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: ErrorBoundaryState): Partial<ErrorBoundaryState> | null {
    if (Object.is(props.resetKey, state.resetKey)) return null;
    return { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    if (isChunkLoadError(error) && reloadOnceForChunk()) return;
    console.error('screen failed', error, info.componentStack);
    // To the error log (shared/api/client-error-log.ts listens): a screen that failed is an uncaught error too.
    reportCaughtError(error);
  }

  private readonly retry = () => this.setState({ error: null });

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const inline = this.props.inline ?? false;
    return isChunkLoadError(error) ? <ChunkFailed inline={inline} /> : <RenderFailed error={error} onRetry={this.retry} inline={inline} />;
  }
}

/**
 * React.lazy for a piece of a page (a settings section): a failure shows a small notice in its place
 * and leaves the rest of the page usable. It has no Suspense of its own: while its code arrives, the
 * page's Suspense shows, as with React.lazy. `preload()` fetches its code beside the page's (never rejects).
 */
export function lazyPiece<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): ((props: ComponentProps<T>) => ReactNode) & { preload: () => Promise<unknown> } {
  const Lazy = lazy(load) as unknown as ComponentType<ComponentProps<T>>;
  function LazyPiece(props: ComponentProps<T>) {
    return (
      <ErrorBoundary inline>
        <Lazy {...props} />
      </ErrorBoundary>
    );
  }
  return Object.assign(LazyPiece, { preload: () => load().catch(() => undefined) });
}
