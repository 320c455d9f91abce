/**
 * Runs a real test server (PGlite in memory) in a process of its own and prints its URL as one
 * JSON line. For client tests under jsdom, where the server's modules cannot load: see
 * startTestAppProcess in test-app-process.ts. Ends when its stdin closes.
 */
import { createTestApp } from './app.ts';

const env = JSON.parse(process.argv[2] ?? '{}') as Record<string, string>;
const testApp = await createTestApp(env);
const url = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url })}\n`);

const stop = async () => {
  await testApp.close();
  process.exit(0);
};
process.stdin.on('end', () => void stop());
process.stdin.on('close', () => void stop());
process.stdin.resume();
process.on('SIGTERM', () => void stop());
