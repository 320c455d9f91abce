/**
 * The spec's pop-up helper (product spec §2, §9): a centred pop-up of 1000 by 800 px, resizable and
 * scrollable; an object URL it opens is revoked after 100 ms (the new window has bound it by then).
 * It is what opens content the product holds as a blob (a generated image given as data), on the web
 * page and in the extension's pages alike: both have window.open, and a pop-up opened from the side
 * panel is a window of its own beside the browser's.
 */
export const POPUP_WIDTH = 1000;
export const POPUP_HEIGHT = 800;
export const POPUP_REVOKE_MS = 100;

/** What the helper reads of the window it opens from (the page's own `window` by default). */
export interface PopupHost {
  open(url: string, target: string, features: string): unknown;
  screen: { width: number; height: number; availWidth?: number; availHeight?: number; availLeft?: number; availTop?: number };
}

/**
 * The features of the pop-up: 1000 × 800 (at most the screen's free area), centred on the screen the
 * page is on, resizable and with scrollbars; no opener (what it shows cannot reach this page).
 */
export function popupFeatures(host: PopupHost): string {
  const { screen } = host;
  // A screen that reports no size (a headless one) gets the pop-up's own.
  const areaWidth = screen.availWidth || screen.width || POPUP_WIDTH;
  const areaHeight = screen.availHeight || screen.height || POPUP_HEIGHT;
  const width = Math.min(POPUP_WIDTH, areaWidth);
  const height = Math.min(POPUP_HEIGHT, areaHeight);
  const left = Math.round((screen.availLeft ?? 0) + (areaWidth - width) / 2);
  const top = Math.round((screen.availTop ?? 0) + (areaHeight - height) / 2);
  return `popup=yes,width=${width},height=${height},left=${left},top=${top},resizable=yes,scrollbars=yes,noopener`;
}

/** Opens `url` in the centred pop-up; a blob: URL is revoked 100 ms later. */
export function openPopup(url: string, host: PopupHost = window): void {
  host.open(url, '_blank', popupFeatures(host));
  if (url.startsWith('blob:')) setTimeout(() => URL.revokeObjectURL(url), POPUP_REVOKE_MS);
}

/** Opens what the product holds as a blob (an image, a document) in the centred pop-up, through an object URL. */
export function openBlobInPopup(blob: Blob, host: PopupHost = window): void {
  openPopup(URL.createObjectURL(blob), host);
}
