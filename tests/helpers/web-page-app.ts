import { startApp, type StartedApp } from '../../components/app-shell/start.ts';
import { setApiBase } from '../../shared/api/request.ts';
import { createWebStorage } from '../../shared/storage/web.ts';
import { startTestAppProcess, type TestAppProcess } from './test-app-process.ts';

/**
 * The real server in a child process and the app started as the web page at `pathname` (in
 * English, on fresh localStorage) talking to it over HTTP: for client tests of login flows.
 */
export async function startWebPageAgainstServer(pathname: string, env: Record<string, string> = {}): Promise<{ server: TestAppProcess; app: StartedApp }> {
  const server = await startTestAppProcess({ AUTH_RATE_LIMIT: '1000', ...env });
  localStorage.clear();
  const app = await startApp({
    storage: createWebStorage(),
    languages: ['en-US'],
    // A web page: the fake browser the client project installs would otherwise look like the extension.
    probe: { chrome: undefined, width: 1280, pathname, matchMedia: () => ({ matches: false }) },
  });
  // The page's origin is jsdom's (http://localhost:3000); its calls go to the test server.
  setApiBase(server.url);
  return { server, app };
}
