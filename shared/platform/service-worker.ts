/**
 * The web app's service worker (served by the server at /sw.js, root scope): it keeps the app shell
 * so the installed app opens at once and shows its offline notice instead of the browser's error
 * page. Web page only: an extension page has its files in the package already.
 */
export function registerAppServiceWorker(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => console.warn('Service worker registration failed', error));
}
