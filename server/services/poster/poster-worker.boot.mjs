// The poster worker's entry: Node 20 does not apply `--import` loader hooks to a worker's entry
// file, so this plain module registers tsx's loader first, then loads the TypeScript worker (as
// export/pdf-worker.boot.mjs does).
import { register } from 'tsx/esm/api';

register();
await import('./poster-worker.ts');
