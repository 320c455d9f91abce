import { z } from 'zod';
import { definePersisted } from '../storage/persisted.ts';
import { loadPersisted, peekLoaded, writePersisted } from '../storage/active.ts';

/** The browser identity cookie (browserId), set on the shared parent domain. */
export const BROWSER_ID_COOKIE = 'browserId';

/** This browser's own visitor id, made once when there is no browserId cookie. */
export const visitorIdPersisted = definePersisted<string | null>({
  key: 'tandem.visitorId',
  version: 1,
  schema: z.string().min(8).max(100).nullable(),
  fallback: null,
});

export function readCookie(name: string, cookies: string): string | null {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return value ? decodeURIComponent(value) : null;
    } catch {
      return value;
    }
  }
  return null;
}

/** The DriverId when it is known without waiting (the cookie, or the stored id once read); else null. */
export function driverIdNow(): string | null {
  const cookie = typeof document === 'undefined' ? null : readCookie(BROWSER_ID_COOKIE, document.cookie);
  return cookie ?? peekLoaded(visitorIdPersisted)?.value ?? null;
}

let making: Promise<string> | undefined;

/**
 * The DriverId header: the browserId cookie when the page has one, else a random id kept in
 * storage (inside the extension there is no cookie, so the id lives in extension storage and is
 * the same for every extension page). Made once even when the first requests run in parallel.
 */
export async function getDriverId(): Promise<string> {
  const cookie = typeof document === 'undefined' ? null : readCookie(BROWSER_ID_COOKIE, document.cookie);
  if (cookie) return cookie;
  const stored = await loadPersisted(visitorIdPersisted);
  if (stored) return stored;
  making ??= (async () => {
    const made = crypto.randomUUID();
    await writePersisted(visitorIdPersisted, made);
    return made;
  })().finally(() => {
    making = undefined;
  });
  return making;
}
