import type { LoginFrameMessage } from '../../shared/contracts/login-frame.ts';

/**
 * Where the central login page may hand a temp key: its own origin (the web app) or a page of an
 * extension the server trusts (`allowedIds`, from the public setting extension_ids). A temp key
 * must never reach any other site or extension. Answers the origin to use as postMessage's
 * targetOrigin, or null when not allowed.
 */
export function trustedOrigin(candidate: string | null | undefined, ownOrigin: string, allowedIds: readonly string[]): string | null {
  if (!candidate) return null;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  // URL.origin is "null" for non-special schemes such as chrome-extension: build it from the host.
  if (url.protocol === 'chrome-extension:') return allowedIds.includes(url.hostname) ? `chrome-extension://${url.hostname}` : null;
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
export function readFrameContext(allowedIds: readonly string[], win: Window = window): FrameContext {
  if (win.parent === win) return { framed: false };
  const origin = embeddingOrigin({ ancestorOrigins: win.location.ancestorOrigins, referrer: win.document.referrer });
  return { framed: true, targetOrigin: trustedOrigin(origin, win.location.origin, allowedIds) };
}

/** Posts a validated-by-type message to the parent, only ever to a trusted, exact origin. */
export function postToParent(win: Window, targetOrigin: string, message: LoginFrameMessage): void {
  win.parent.postMessage(message, targetOrigin);
}

/** Where a sign-in outside a frame goes: the address, or null when the callback may not have a key. */
export type RedirectPlan = { target: string; sameOrigin: boolean } | null;

/**
 * Where the browser goes after signing in outside a frame (the caller sends a `callback` holding
 * its origin and path, and may send the `state` it keeps to know its own login when it comes
 * back). A callback on this origin or a trusted extension's page gets tempKey (and state) added,
 * keeping its path, other parameters and hash; no callback means the web app's root; a callback
 * anywhere else gets nothing (null): the page says the app is not allowed to sign in.
 */
export function planRedirect(pageHref: string, allowedIds: readonly string[]): RedirectPlan {
  const page = new URL(pageHref);
  const callback = page.searchParams.get('callback');
  if (!callback) return { target: `${page.origin}/`, sameOrigin: true };
  let target: URL;
  try {
    target = new URL(callback, page.origin);
  } catch {
    return null;
  }
  const origin = trustedOrigin(target.href, page.origin, allowedIds);
  return origin ? { target: target.href, sameOrigin: origin === page.origin } : null;
}

/** The planned target with the credential (and the login's state) as its only login parameters. */
export function withTempKey(target: string, tempKey: string, state: string | null): string {
  const url = new URL(target);
  // One credential parameter only: an older spelling left in the callback must not win.
  for (const name of ['tempkey', 'token', 'tempKey', 'state']) url.searchParams.delete(name);
  url.searchParams.set('tempKey', tempKey);
  if (state) url.searchParams.set('state', state);
  return url.href;
}
