import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
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
  // Pictures of failed steps are of this run only.
  const shots = path.join(root, 'tests', 'e2e', 'screenshots');
  if (existsSync(shots)) for (const name of readdirSync(shots)) if (name.startsWith('failed-')) rmSync(path.join(shots, name));
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ensure-extension-build.ts'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('The extension build failed; see the output above.');
}
