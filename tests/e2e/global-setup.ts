import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHROMIUM } from './harness.ts';

/**
 * Before the end-to-end files: the extension build they load (and the server serves) must exist and
 * be current, which is what `npm start` ensures too; and Chromium must be installed.
 */
export default function setup(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium was not found at ${CHROMIUM}. Install it (apt-get install -y chromium) or set PUPPETEER_EXECUTABLE_PATH.`);
  }
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ensure-extension-build.ts'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('The extension build failed; see the output above.');
}
