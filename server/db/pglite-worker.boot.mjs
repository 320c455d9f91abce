// The embedded database thread's entry: Node 20 does not apply `--import` loader hooks to a worker's entry
// file, so this plain module registers tsx's loader first, then loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./pglite-worker.ts');
