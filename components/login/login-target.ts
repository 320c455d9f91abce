import type { LoginFrameMessage } from '../../shared/contracts/login-frame.ts';

/**
 * Where the central login page may hand a temp key: its own origin (the web app) or an extension
 * page (chrome-extension://, Chrome and Edge alike). A temp key must never reach any other site.
 * Answers the origin to use as postMessage's targetOrigin, or null when not allowed.
 */
export function trustedOrigin(candidate: string | null | undefined, ownOrigin: string): string | null {
  if (!candidate) return null;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  // URL.origin is "null" for non-special schemes such as chrome-extension: build it from the host.
  if (url.protocol === 'chrome-extension:') return url.hostname ? `chrome-extension://${url.hostname}` : null;
  return url.origin === ownOrigin ? ownOrigin : null;
}

/** What the page needs to know about the window that embeds it. */
export interface EmbeddingProbe {
  /** Chromium only: the origins of the embedding frames, nearest first. */
  ancestorOrigins?: ArrayLike<string> | null;
  /** The embedding page's address (or origin, under a strict referrer policy), when sent. */
  referrer: string;
}

/**
 * The page that frames this one, as an origin or an address (trustedOrigin reduces it to an
 * origin): ancestorOrigins[0] when the browser has it, else the referrer.
 */
export function embeddingOrigin(probe: EmbeddingProbe): string | null {
  const ancestor = probe.ancestorOrigins && probe.ancestorOrigins.length > 0 ? probe.ancestorOrigins[0] : undefined;
  return ancestor || probe.referrer || null;
}

export type FrameContext =
  | { framed: false }
  /** targetOrigin is null when the embedding site is not trusted: nothing may be posted to it. */
  | { framed: true; targetOrigin: string | null };

/** Reads the running page once: is it in a frame, and may it talk to the frame's parent? */
export function readFrameContext(win: Window = window): FrameContext {
  if (win.parent === win) return { framed: false };
  const origin = embeddingOrigin({ ancestorOrigins: win.location.ancestorOrigins, referrer: win.document.referrer });
  return { framed: true, targetOrigin: trustedOrigin(origin, win.location.origin) };
}

/** Posts a validated-by-type message to the parent, only ever to a trusted, exact origin. */
export function postToParent(win: Window, targetOrigin: string, message: LoginFrameMessage): void {
  win.parent.postMessage(message, targetOrigin);
}

/**
 * Where the browser goes after signing in outside a frame (spec §2: the caller sends a `callback`
 * holding its origin and path). A callback on this origin or an extension page gets tempKey added,
 * keeping its path, other parameters and hash; anything else falls back to the web app's root,
 * which logs in from the tempKey parameter.
 */
export function redirectTarget(pageHref: string, tempKey: string): string {
  const page = new URL(pageHref);
  const callback = page.searchParams.get('callback');
  if (callback) {
    let target: URL | undefined;
    try {
      target = new URL(callback, page.origin);
    } catch {
      target = undefined;
    }
    if (target && trustedOrigin(target.href, page.origin)) {
      // One credential parameter only: an older spelling left in the callback must not win.
      target.searchParams.delete('tempkey');
      target.searchParams.delete('token');
      target.searchParams.set('tempKey', tempKey);
      return target.href;
    }
  }
  return `${page.origin}/?${new URLSearchParams({ tempKey }).toString()}`;
}
