import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { useInstalledAppMode } from '../../../components/app-shell/installed-app.ts';
import { isInstalledAppMode } from '../../../shared/platform/display-mode.ts';
import { detectPlatform } from '../../../shared/platform/platform.ts';

describe('installed-app mode', () => {
  it('is any path but the root, in standalone or fullscreen display', () => {
    const browserTab = { standalone: false, fullscreen: false };
    expect(isInstalledAppMode('/setting', { standalone: true, fullscreen: false })).toBe(true);
    expect(isInstalledAppMode('/helper', { standalone: false, fullscreen: true })).toBe(true);
    expect(isInstalledAppMode('/', { standalone: true, fullscreen: true })).toBe(false);
    expect(isInstalledAppMode('/setting', browserTab)).toBe(false);
    expect(isInstalledAppMode('/', browserTab)).toBe(false);
  });

  it('is what the platform detects at start-up', () => {
    const probe = (pathname: string, display: string | null) => ({ chrome: undefined, width: 1200, pathname, matchMedia: (q: string) => ({ matches: q === display }) });
    expect(detectPlatform(probe('/guide', '(display-mode: standalone)')).standalone).toBe(true);
    expect(detectPlatform(probe('/guide', '(display-mode: fullscreen)')).standalone).toBe(true);
    expect(detectPlatform(probe('/', '(display-mode: standalone)')).standalone).toBe(false);
    expect(detectPlatform(probe('/guide', null)).standalone).toBe(false);
  });

  describe('the hook', () => {
    const listeners = new Set<() => void>();
    let standalone = false;
    const original = window.matchMedia;
    afterEach(() => {
      window.matchMedia = original;
      listeners.clear();
    });

    function Probe() {
      return <span data-testid="mode">{useInstalledAppMode() ? 'installed' : 'tab'}</span>;
    }

    it('follows the route and changes of the display mode', () => {
      window.matchMedia = ((query: string) => ({
        matches: query === '(display-mode: standalone)' && standalone,
        media: query,
        addEventListener: (_: string, fn: () => void) => listeners.add(fn),
        removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
      })) as unknown as typeof window.matchMedia;
      const location = memoryLocation({ path: '/helper', record: true });
      render(
        <Router hook={location.hook}>
          <Probe />
        </Router>,
      );
      expect(screen.getByTestId('mode')).toHaveTextContent('tab');
      act(() => {
        standalone = true;
        for (const fn of listeners) fn();
      });
      expect(screen.getByTestId('mode')).toHaveTextContent('installed');
      act(() => location.navigate('/'));
      expect(screen.getByTestId('mode')).toHaveTextContent('tab');
    });
  });
});
