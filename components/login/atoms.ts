import { atom } from 'jotai';
import { z } from 'zod';
import type { UserInfo } from '../../shared/contracts/user.ts';
import { loadPersisted, writePersisted } from '../../shared/storage/active.ts';
import { definePersisted } from '../../shared/storage/persisted.ts';

/**
 * Logins this browser started itself carry a one-time `state` the starter keeps here; a link whose
 * credential comes back with a state found here was asked for by this browser, and needs no
 * question. Anything else is a link someone else made. docs/security.md#login-links.
 */

/** How long a started login may take to come back. */
const STATE_TTL_MS = 15 * 60_000;
const MAX_PENDING = 10;

const PendingStatesSchema = z.array(z.object({ state: z.string().min(16).max(100), expiresAt: z.number() })).max(MAX_PENDING);

export const pendingLoginStatesPersisted = definePersisted<z.infer<typeof PendingStatesSchema>>({
  key: 'tandem.login.pendingStates',
  version: 1,
  schema: PendingStatesSchema,
  fallback: [],
});

const live = (list: z.infer<typeof PendingStatesSchema>, now: number) => list.filter((p) => p.expiresAt > now);

/** A new state for a login this browser starts, kept until it comes back (or expires). */
export async function rememberLoginState(now = Date.now()): Promise<string> {
  const state = Array.from(crypto.getRandomValues(new Uint8Array(18)), (b) => b.toString(16).padStart(2, '0')).join('');
  const kept = live(await loadPersisted(pendingLoginStatesPersisted), now).slice(-(MAX_PENDING - 1));
  await writePersisted(pendingLoginStatesPersisted, [...kept, { state, expiresAt: now + STATE_TTL_MS }]);
  return state;
}

/** Whether `state` is one this browser started and has not used yet; it is used up either way. */
export async function consumeLoginState(state: string | null | undefined, now = Date.now()): Promise<boolean> {
  if (!state) return false;
  const list = live(await loadPersisted(pendingLoginStatesPersisted), now);
  const found = list.some((p) => p.state === state);
  await writePersisted(pendingLoginStatesPersisted, list.filter((p) => p.state !== state));
  return found;
}

/** A login link waiting for the user's answer: who it would sign in as, and how to answer. */
export type PendingLinkLogin = { user: UserInfo; answer(accept: boolean): void };

export const pendingLinkLoginAtom = atom<PendingLinkLogin | null>(null);
