import { parentPort } from 'node:worker_threads';
import type { Font } from 'satori';
import { failureText, type WorkerAnswer } from '../workers/worker-pool.ts';
import { posterFonts, renderPoster, type PosterInput } from './poster-render.ts';

/**
 * A poster worker thread (started by poster.ts, from the pool of services/workers/worker-pool.ts):
 * it reads the fonts once, then draws one poster per message (satori, then resvg), one at a time,
 * and answers each with the PNG's bytes and the characters no font here has, or the failure's text.
 */

export type PosterWorkerResult = { png: Uint8Array; missing: string[] };

let fonts: Font[] | undefined;
let fontError = '';
try {
  fonts = posterFonts();
} catch (err) {
  // Answered to every job: the package with the fonts is missing or broken (docs/deployment.md).
  fontError = `the poster fonts could not be read: ${failureText(err)}`;
}

parentPort!.on('message', async (input: PosterInput) => {
  let answer: WorkerAnswer<PosterWorkerResult>;
  try {
    if (!fonts) throw new Error(fontError);
    const { png, missing } = await renderPoster(input, fonts);
    answer = { ok: true, value: { png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), missing } };
  } catch (err) {
    answer = { ok: false, error: failureText(err) };
  }
  parentPort!.postMessage(answer);
});
