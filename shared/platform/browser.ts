/**
 * Which browser this page runs in, for what the home page offers first (the Chrome, Edge or Firefox
 * package) and what uninstall feedback records. Chrome, Edge, Firefox and Safari are told apart by
 * the user agent (and the client hints' brands when the browser gives them); anything else
 * (Opera, Samsung Internet, a bot) is `unknown`. Pure: tests pass their own strings.
 */
export type BrowserName = 'chrome' | 'edge' | 'firefox' | 'safari' | 'unknown';

/** navigator.userAgentData.brands, where the browser has it (Chromium). */
export type BrandList = readonly { brand: string }[] | undefined;

export function detectBrowser(userAgent: string, brands?: BrandList): BrowserName {
  const names = (brands ?? []).map((b) => b.brand);
  // Edge may send a plain Chrome user agent; its client hints still name it.
  if (names.includes('Microsoft Edge')) return 'edge';
  if (names.some((n) => n === 'Opera' || n === 'Samsung Internet')) return 'unknown';
  const ua = userAgent;
  // Order matters: Edge and Opera also say "Chrome", Chrome also says "Safari".
  if (/\b(Edg|EdgA|EdgiOS|Edge)\//.test(ua)) return 'edge';
  if (/\b(OPR|Opera|SamsungBrowser|YaBrowser|UCBrowser)\//.test(ua)) return 'unknown';
  if (/\b(Firefox|FxiOS)\//.test(ua)) return 'firefox';
  if (/\b(HeadlessChrome|Chrome|CriOS|Chromium)\//.test(ua) || names.includes('Google Chrome') || names.includes('Chromium')) return 'chrome';
  if (/\bVersion\/[\d.]+.*\bSafari\//.test(ua)) return 'safari';
  return 'unknown';
}

/** The running page's browser (reads navigator; for components at render time). */
export function currentBrowser(): BrowserName {
  if (typeof navigator === 'undefined') return 'unknown';
  const brands = (navigator as Navigator & { userAgentData?: { brands?: BrandList } }).userAgentData?.brands;
  return detectBrowser(navigator.userAgent, brands);
}

/** The extension packages the server builds, in the order offered to a visitor of `browser`. */
export type PackageBrowser = 'chrome' | 'edge' | 'firefox';

export function packageOrder(browser: BrowserName): PackageBrowser[] {
  if (browser === 'edge') return ['edge', 'chrome', 'firefox'];
  if (browser === 'firefox') return ['firefox', 'chrome', 'edge'];
  return ['chrome', 'edge', 'firefox'];
}
