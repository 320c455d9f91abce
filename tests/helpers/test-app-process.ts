import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface TestAppProcess {
  url: string;
  close(): Promise<void>;
}

// import.meta.url is not a file: URL under jsdom; dirname is the module's folder in both environments.
const script = path.join(import.meta.dirname, 'serve-test-app.ts');

/**
 * The real server (createTestApp) listening in a child process, for client tests that run under
 * jsdom: Testing Library drives the UI and the UI's calls reach the real routes over HTTP.
 */
export async function startTestAppProcess(env: Record<string, string> = {}): Promise<TestAppProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(env)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      lines.close();
      try {
        resolve((JSON.parse(line) as { url: string }).url);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(line)));
      }
    });
    child.once('exit', (code) => reject(new Error(`test server exited (${code}) before listening`)));
  });
  return {
    url,
    async close() {
      child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
