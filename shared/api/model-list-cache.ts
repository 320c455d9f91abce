import { z } from 'zod';
import { tokenPersisted } from '../atoms/auth.ts';
import { ModelListSchema, type ModelListItem } from '../contracts/model.ts';
import { peekPersisted, writePersisted } from '../storage/active.ts';
import { definePersisted } from '../storage/persisted.ts';
import { getApiBase } from './request.ts';

/**
 * The last model list the server gave, and to whom: the server's address, the account (a fingerprint
 * of the login's token; `visitor` without one) and the plan level the list was asked for. A page
 * starts from it (the side panel opened by the selection toolbar runs its action at once) while the
 * list is asked for again beside it; the server's answer replaces it. One entry: another server,
 * account or plan level finds nothing here until its own list has come.
 */
export const lastModelListPersisted = definePersisted<{ server: string; account: string; planLevel: number; list: ModelListItem[] } | null>({
  key: 'tandem.chat.lastModelList',
  version: 1,
  schema: z.object({ server: z.string(), account: z.string(), planLevel: z.number().int(), list: ModelListSchema }).nullable(),
  fallback: null,
});

/**
 * Who the calls are made as now, without keeping the token a second time: two 32-bit FNV-1a style
 * hashes of it (a different login, even of the same user, is another account; that only costs a miss).
 */
function currentAccount(): string {
  const token = peekPersisted(tokenPersisted);
  if (token === null) return 'visitor';
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 13);
  }
  return `user-${(a >>> 0).toString(36)}${(b >>> 0).toString(36)}`;
}

/**
 * The list kept for this server (the API base unless given), account and plan level (read from the
 * storage cache, which start-up fills); else undefined.
 */
export function lastModelList(planLevel: number, server = getApiBase()): ModelListItem[] | undefined {
  const kept = peekPersisted(lastModelListPersisted);
  if (!kept || kept.server !== server || kept.planLevel !== planLevel || kept.account !== currentAccount()) return undefined;
  return kept.list;
}

/**
 * Calls `load` and keeps what it answers for the server and account it was asked as; an answer that
 * comes back after a sign-in, sign-out or a change of server is still returned, but not kept.
 */
export async function keepingModelList(planLevel: number, load: () => Promise<ModelListItem[]>): Promise<ModelListItem[]> {
  const server = getApiBase();
  const account = currentAccount();
  const list = await load();
  if (getApiBase() === server && currentAccount() === account) {
    writePersisted(lastModelListPersisted, { server, account, planLevel, list }).catch((error: unknown) => console.warn('storage: keeping the model list failed', error));
  }
  return list;
}
