import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../helpers/app.ts';
import { callApi, logInThrough, startServerProcess, stopServerProcess, type ServerProcess } from '../helpers/server-process.ts';

/**
 * An installation's data folder outlives the code: the server as `npm start` runs it (PGlite now in
 * a thread of its own) starts on a folder written by e5fde95, when PGlite ran in the server's own
 * thread (tests/fixtures/pglite-data/README.md), and serves its accounts and what they kept.
 */

const fixture = fileURLToPath(new URL('../fixtures/pglite-data/e5fde95.tar.xz', import.meta.url));

(onPostgres ? describe.skip : describe)('a data folder written by an earlier version (PGlite)', () => {
  let dir: string;
  let server: ServerProcess | undefined;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tandem-old-data-'));
    execFileSync('tar', ['-xJf', fixture, '-C', dir]);
  });
  afterAll(async () => {
    await stopServerProcess(server, 'SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens with its accounts and their data, and takes new ones', { timeout: 120_000 }, async () => {
    server = await startServerProcess({ DATA_DIR: path.join(dir, 'data'), OLLAMA_URL: 'http://127.0.0.1:9', AUTH_RATE_LIMIT: '1000' });
    const token = await logInThrough(server.origin, 'keeper@example.test');
    expect((await callApi(server.origin, 'GET', '/api/User/GetUserByLogin', undefined, token)).email).toBe('keeper@example.test');
    const tools = await callApi(server.origin, 'GET', '/api/QuickFunction/GetUserQuickFunctionList', undefined, token);
    expect(tools.map((t: { name: string }) => t.name)).toEqual(['Kept tool']);
    // Written on the new code, read back after a restart on the same folder.
    await logInThrough(server.origin, 'newcomer@example.test', {}, true);
    await stopServerProcess(server, 'SIGTERM');
    server = await startServerProcess({ DATA_DIR: path.join(dir, 'data'), OLLAMA_URL: 'http://127.0.0.1:9', AUTH_RATE_LIMIT: '1000' });
    await logInThrough(server.origin, 'newcomer@example.test');
    await logInThrough(server.origin, 'keeper@example.test');
  });
});
