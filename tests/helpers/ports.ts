import { createServer } from 'node:net';

/**
 * Ports are picked below the kernel's ephemeral range (32768–60999 on Linux), where no listen(0),
 * client socket or Chromium of a test running beside this one is ever given a port: only another
 * pick here could take the same one, and it cannot while it is held.
 */
const LOWEST = 20_000;
const SPAN = 12_000;

/**
 * A loopback port held (listened on) until `release()`: for a server that must know its address
 * before it listens (PUBLIC_URL of a stack), released just before that server listens on it.
 */
export async function reservePort(): Promise<{ port: number; release(): Promise<void> }> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * SPAN);
    const probe = createServer();
    const held = await new Promise<boolean>((resolve) => {
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (held) return { port, release: () => new Promise<void>((resolve) => probe.close(() => resolve())) };
  }
  throw new Error(`no free loopback port between ${LOWEST} and ${LOWEST + SPAN}`);
}

/** A port free on loopback now, for a process started on it (which listens itself). */
export async function freePort(): Promise<number> {
  const { port, release } = await reservePort();
  await release();
  return port;
}
