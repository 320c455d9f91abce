/** Where this bundle runs (spec §3 Scene types): the web page, the extension, or mobile web (H5). */
export type Scene = 'web' | 'extension' | 'h5';

export interface Platform {
  /** An extension page (side panel, popup, app.html inside the extension). */
  isExtension: boolean;
  scene: Scene;
  /** Narrow screen: width 768 or less (spec §2). */
  isH5: boolean;
  /** Installed-app mode: standalone or fullscreen display, except at the root path (spec §2). */
  standalone: boolean;
}

/** The mobile web threshold of spec §2 and §9. */
export const H5_MAX_WIDTH = 768;

/** What detection looks at; the defaults read the running page. */
export interface PlatformProbe {
  /** The global `chrome`, if any. */
  chrome: unknown;
  width: number;
  pathname: string;
  matchMedia: (query: string) => { matches: boolean };
}

function currentProbe(): PlatformProbe {
  return {
    chrome: typeof chrome === 'undefined' ? undefined : chrome,
    width: window.innerWidth,
    pathname: window.location.pathname,
    matchMedia: (query) => (typeof window.matchMedia === 'function' ? window.matchMedia(query) : { matches: false }),
  };
}

/**
 * Chosen once at start-up by each entrypoint. A normal web page has a `chrome` global without
 * `runtime.id`, so only a runtime id means "extension" (STACK-NOTES). Reads no extension API
 * beyond that property, so the web page may call it.
 */
export function detectPlatform(probe: PlatformProbe = currentProbe()): Platform {
  const runtime = (probe.chrome as { runtime?: { id?: string } } | undefined)?.runtime;
  const isExtension = !!runtime?.id;
  const isH5 = probe.width <= H5_MAX_WIDTH;
  const displayStandalone =
    probe.matchMedia('(display-mode: standalone)').matches || probe.matchMedia('(display-mode: fullscreen)').matches;
  return {
    isExtension,
    // The extension's panel is narrow too, but it is the extension scene: H5 means mobile web.
    scene: isExtension ? 'extension' : isH5 ? 'h5' : 'web',
    isH5,
    standalone: displayStandalone && probe.pathname !== '/',
  };
}
