import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openBlobInPopup, openPopup, popupFeatures, POPUP_REVOKE_MS, type PopupHost } from '../../../shared/utils/popup.ts';

/** A window whose open() records what it was asked, on a screen of the given free area. */
function host(screen: PopupHost['screen']) {
  const opened: { url: string; target: string; features: string }[] = [];
  return { opened, host: { screen, open: (url: string, target: string, features: string) => void opened.push({ url, target, features }) } satisfies PopupHost };
}
const features = (text: string) => Object.fromEntries(text.split(',').map((pair) => pair.split('=') as [string, string]));

describe('the centred pop-up', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('is 1000 × 800, centred on the screen the page is on, resizable and scrollable, with no opener', () => {
    const { opened, host: window } = host({ width: 1920, height: 1080, availWidth: 1920, availHeight: 1040, availLeft: 1920, availTop: 0 });
    openPopup('https://example.com/doc', window);
    expect(opened).toHaveLength(1);
    expect(opened[0]!.url).toBe('https://example.com/doc');
    expect(opened[0]!.target).toBe('_blank');
    expect(features(opened[0]!.features)).toEqual({
      popup: 'yes',
      width: '1000',
      height: '800',
      left: String(1920 + 460),
      top: '120',
      resizable: 'yes',
      scrollbars: 'yes',
      noopener: undefined,
    });
    expect(opened[0]!.features.split(',')).toContain('noopener');
  });

  it('fits a screen smaller than the pop-up', () => {
    expect(features(popupFeatures({ open: () => null, screen: { width: 900, height: 700 } }))).toMatchObject({ width: '900', height: '700', left: '0', top: '0' });
  });

  it('revokes an object URL 100 ms after opening it, and leaves other addresses alone', () => {
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:tandem/1');
    const { opened, host: window } = host({ width: 1440, height: 900 });
    openBlobInPopup(new Blob(['png'], { type: 'image/png' }), window);
    expect(opened[0]!.url).toBe('blob:tandem/1');
    vi.advanceTimersByTime(POPUP_REVOKE_MS - 1);
    expect(revoke).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(revoke).toHaveBeenCalledWith('blob:tandem/1');

    openPopup('https://example.com/page', window);
    vi.advanceTimersByTime(1000);
    expect(revoke).toHaveBeenCalledTimes(1);
  });
});
