import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StartedApp } from '../../../components/app-shell/start.ts';
import { loginFromUrl } from '../../../components/login/url-login.ts';
import { addUser, login } from '../../../shared/api/account.ts';
import { getTokenForTempKey } from '../../../shared/api/user.ts';
import { authActionAtom, tokenAtom, userInfoAtom } from '../../../shared/atoms/auth.ts';
import { pendingLinkLoginAtom, rememberLoginState, type PendingLinkLogin } from '../../../components/login/atoms.ts';
import type { TestAppProcess } from '../../helpers/test-app-process.ts';
import { startWebPageAgainstServer } from '../../helpers/web-page-app.ts';

/**
 * A link carrying a credential (?token=, ?tempKey=) never changes who this browser is without the
 * user's word, unless this browser started that login itself or it is the same account.
 */

let server: TestAppProcess;
let app: StartedApp;
const victim = { email: `victim-${randomUUID()}@example.test`, password: 'victim password 1' };
const attacker = { email: `attacker-${randomUUID()}@example.test`, password: 'attacker password 1', userName: 'Mallory' };

const tempKeyOf = async (who: { email: string; password: string }) => (await login(who)).tempKey;
const tokenOf = async (who: { email: string; password: string }) => getTokenForTempKey(await tempKeyOf(who));

beforeAll(async () => {
  ({ server, app } = await startWebPageAgainstServer('/'));
  await addUser(victim);
  await addUser(attacker);
});
afterAll(async () => {
  app?.stop();
  await server?.close();
});

beforeEach(async () => {
  await app.store.set(authActionAtom, { type: 'logout' });
  app.store.set(pendingLinkLoginAtom, null);
});

/** The token stored before a question is answered: it must not change while the question is open. */
let beforeAnswer: string | null = null;

/** Starts the URL login, waits for its question (if any) and answers it. */
async function follow(query: string, answer?: boolean) {
  const replaced: string[] = [];
  const outcome = loginFromUrl(app.store, `http://localhost:3000/chat-1?${query}#top`, (url) => replaced.push(url));
  if (answer === undefined) return { outcome: await outcome, asked: null, replaced };
  const asked = await new Promise<PendingLinkLogin>((resolve) => {
    const check = () => {
      const pending = app.store.get(pendingLinkLoginAtom);
      if (pending) resolve(pending);
    };
    app.store.sub(pendingLinkLoginAtom, check);
    check();
  });
  // Nothing is stored while the question is open.
  expect(app.store.get(tokenAtom)).toBe(beforeAnswer);
  asked.answer(answer);
  return { outcome: await outcome, asked, replaced };
}
describe('a login link', () => {
  it('asks a signed-out browser before signing in as the link account, and stores nothing when declined', async () => {
    beforeAnswer = null;
    const { outcome, asked, replaced } = await follow(`token=${await tokenOf(attacker)}&x=1`, false);
    expect(asked!.user).toMatchObject({ email: attacker.email, userName: 'Mallory' });
    expect(outcome).toBe('declined');
    expect(app.store.get(tokenAtom)).toBeNull();
    // The credential left the address bar first, whatever the answer.
    expect(replaced).toEqual(['/chat-1?x=1#top']);
  });

  it('asks a browser signed in as someone else, and switches only when the user continues', async () => {
    const victimToken = await tokenOf(victim);
    await app.store.set(authActionAtom, { type: 'login', token: victimToken });
    await app.store.set(authActionAtom, { type: 'userInfo', userInfo: { userId: 'will-be-checked', userName: '', email: victim.email, role: 'user', vipOrder: null } });
    beforeAnswer = victimToken;
    const declined = await follow(`tempKey=${await tempKeyOf(attacker)}`, false);
    expect(declined.outcome).toBe('declined');
    expect(app.store.get(tokenAtom)).toBe(victimToken);

    const accepted = await follow(`tempkey=${await tempKeyOf(attacker)}`, true);
    expect(accepted.outcome).toBe('logged-in');
    expect(app.store.get(tokenAtom)).not.toBe(victimToken);
    expect(app.store.get(userInfoAtom)?.email).toBe(attacker.email);
  });

  it('needs no question for the account already signed in', async () => {
    const first = await tokenOf(victim);
    await app.store.set(authActionAtom, { type: 'login', token: first });
    const { getUserByLogin } = await import('../../../shared/api/user.ts');
    await app.store.set(authActionAtom, { type: 'userInfo', userInfo: await getUserByLogin() });
    const second = await tokenOf(victim);
    const { outcome } = await follow(`token=${second}`);
    expect(outcome).toBe('logged-in');
    expect(app.store.get(tokenAtom)).toBe(second);
  });

  it('needs no question for a login this browser started (its state comes back)', async () => {
    const state = await rememberLoginState();
    const { outcome } = await follow(`tempKey=${await tempKeyOf(victim)}&state=${state}`);
    expect(outcome).toBe('logged-in');
    expect(app.store.get(userInfoAtom)?.email).toBe(victim.email);
  });

  it('asks when the state is not one this browser keeps (or was used already)', async () => {
    const state = await rememberLoginState();
    await follow(`tempKey=${await tempKeyOf(victim)}&state=${state}`);
    await app.store.set(authActionAtom, { type: 'logout' });
    beforeAnswer = null;
    const replayed = await follow(`tempKey=${await tempKeyOf(attacker)}&state=${state}`, false);
    expect(replayed.outcome).toBe('declined');
    const forged = await follow(`tempKey=${await tempKeyOf(attacker)}&state=${'ab'.repeat(18)}`, false);
    expect(forged.outcome).toBe('declined');
    expect(app.store.get(tokenAtom)).toBeNull();
  });

  it('leaves the signed-in account alone when the link credential is not valid', async () => {
    const victimToken = await tokenOf(victim);
    await app.store.set(authActionAtom, { type: 'login', token: victimToken });
    const { outcome } = await follow('token=not-a-real-token');
    expect(outcome).toBe('failed');
    expect(app.store.get(tokenAtom)).toBe(victimToken);
  });
});
