import { z } from 'zod';
import { clearPersisted, loadPersisted, writePersisted } from '../storage/active.ts';
import { definePersisted } from '../storage/persisted.ts';

/**
 * An invite code that brought this browser here (PUBLIC_URL/?inviteCode=CODE, docs/economy.md#invites),
 * kept for a few days so that a sign-up later (the login page runs on the same origin, so it reads the
 * same storage) names the inviter in AddUser, and page views carry it.
 */

/** How long a code from a link is kept. */
export const INVITE_CODE_TTL_MS = 3 * 24 * 60 * 60_000;

/** What a code may look like: the server's are 8 letters and digits; anything else is not kept. */
const CodeSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{4,32}$/);

export const pendingInviteCodePersisted = definePersisted<{ code: string; savedAt: number } | null>({
  key: 'tandem.invite.pendingCode',
  version: 1,
  schema: z.object({ code: CodeSchema, savedAt: z.number() }).nullable(),
  fallback: null,
});

/** The kept code, unless it is older than INVITE_CODE_TTL_MS (then it is forgotten). */
export async function pendingInviteCode(now = Date.now()): Promise<string | null> {
  const kept = await loadPersisted(pendingInviteCodePersisted);
  if (kept === null) return null;
  if (now - kept.savedAt > INVITE_CODE_TTL_MS || kept.savedAt > now + 60_000) {
    await clearPersisted(pendingInviteCodePersisted);
    return null;
  }
  return kept.code;
}

/** Forgets the kept code (after the sign-up that used it). */
export function forgetInviteCode(): Promise<void> {
  return clearPersisted(pendingInviteCodePersisted);
}

/**
 * Keeps the `inviteCode` of the address (a valid one replaces the one kept) and takes it out of the
 * address bar, so a reload or a shared link does not carry it on. Answers the code now kept, if any.
 */
export async function keepInviteCodeFromUrl(
  href: string = window.location.href,
  replaceUrl: (url: string) => void = (url) => window.history.replaceState(window.history.state, '', url),
  now = Date.now(),
): Promise<string | null> {
  const url = new URL(href);
  if (url.searchParams.has('inviteCode')) {
    const parsed = CodeSchema.safeParse(url.searchParams.get('inviteCode') ?? '');
    url.searchParams.delete('inviteCode');
    replaceUrl(`${url.pathname}${url.search}${url.hash}`);
    if (parsed.success) await writePersisted(pendingInviteCodePersisted, { code: parsed.data, savedAt: now });
  }
  return pendingInviteCode(now);
}
