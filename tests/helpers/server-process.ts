import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import { freePort } from './ports.ts';

/**
 * The server as `npm start` runs it (server/main.ts in a process of its own), for tests that kill,
 * restart or multiply it: crash safety, several instances behind a proxy.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

export type ServerProcess = { child: ChildProcess; origin: string; port: number; exited: Promise<unknown> };

/** Starts server/main.ts on a free loopback port and resolves once /api/health answers 200. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, PUBLIC_URL: origin, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1' },
    // TEST_SERVER_LOGS=1 shows the servers' logs (pino writes to stdout), to see why a test failed.
    stdio: ['ignore', process.env.TEST_SERVER_LOGS ? 'inherit' : 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await vi.waitUntil(
    async () => {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before serving`);
      return fetch(`${origin}/api/health`).then((r) => r.ok, () => false);
    },
    { timeout: 60_000, interval: 100 },
  );
  return { child, origin, port, exited };
}

/** Ends a started server (SIGKILL unless told otherwise) and waits for its exit. */
export async function stopServerProcess(server: ServerProcess | undefined, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill(signal);
  await server.exited;
}

const json = { 'content-type': 'application/json-patch+json' };

/** Calls a route and returns its Data; anything but Code 10000 throws with the route and the message. */
export async function callApi(
  origin: string,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  token?: string,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${origin}${url}`, {
    method,
    headers: { ...json, ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await res.json();
  if (answer.Code !== 10000) throw new Error(`${url} answered ${answer.Code}: ${answer.Msg}`);
  return answer.Data;
}

/** Signs up and logs in (AddUser, Login, GetTokenForTempKey); returns the bearer token. */
export async function signUpThrough(origin: string, email: string, headers: Record<string, string> = {}): Promise<string> {
  return logInThrough(origin, email, headers, true);
}

export async function logInThrough(origin: string, email: string, headers: Record<string, string> = {}, signUp = false): Promise<string> {
  const password = 'correct horse battery';
  if (signUp) await callApi(origin, 'POST', '/api/Account/AddUser', { email, password }, undefined, headers);
  const { tempKey } = await callApi(origin, 'POST', '/api/Account/Login', { email, password }, undefined, headers);
  return callApi(origin, 'GET', `/api/User/GetTokenForTempKey?tempKey=${tempKey}`, undefined, undefined, headers);
}
