import type { FastifyReply } from 'fastify';
import type { EventStream } from '../core/event-stream.ts';
import { onResponseClose } from './client-gone.ts';

/**
 * Takes over the response as text/event-stream, keeping the headers set so far (CORS, nosniff, a
 * renewed Authorization), which writing the raw response alone would lose. False when the client
 * has already gone (nothing is written then).
 */
export function openEventStream(reply: FastifyReply): boolean {
  const raw = reply.raw;
  const headers = Object.fromEntries(Object.entries(reply.getHeaders()).filter(([, v]) => v !== undefined));
  reply.hijack();
  if (raw.destroyed) return false;
  raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
  return true;
}

/**
 * The event stream of one answer, opened only once the message is stored: until `open`, events are
 * kept here (nothing, not even the headers, reaches the client); `open` takes over the raw response
 * and sends them. `send` drops what a gone client cannot take.
 *
 * A fast model's pieces come a few milliseconds apart, and each write to the client is a system call
 * (on loopback, with the receiving side's work in it). So after a write, what is sent within the next
 * GATHER_MS goes out as one write when it ends: the first text and the first event after a pause are
 * never held back, a later one at most GATHER_MS, less than a frame of the screen (bench/README.md,
 * load: 3–14 % less CPU per chat start with the bench's model, 20 pieces 2 ms apart).
 */
const GATHER_MS = 16;

export function deferredEventStream(reply: FastifyReply): EventStream {
  const raw = reply.raw;
  raw.on('error', () => {});
  let held: string[] | null = [];
  let heldSince = 0;
  let gathered = '';
  let flushing: NodeJS.Timeout | null = null;
  let lastWrite = -Infinity;
  const write = (chunk: string) => {
    raw.write(chunk);
    lastWrite = performance.now();
  };
  const flushGathered = () => {
    flushing = null;
    if (!raw.destroyed) write(gathered);
    gathered = '';
  };
  return {
    send(chunk) {
      if (held) {
        // The first event is the opening one; the wait that counts starts with the answer's first.
        if (held.push(chunk) === 2) heldSince = performance.now();
        return;
      }
      if (raw.destroyed || raw.writableEnded) return;
      if (flushing) return void (gathered += chunk);
      // A timer only when something is held: a slow model's pieces each go out at once, timer-free.
      const since = performance.now() - lastWrite;
      if (since >= GATHER_MS) return write(chunk);
      gathered = chunk;
      flushing = setTimeout(flushGathered, GATHER_MS - since);
    },
    end(chunk = '') {
      if (held) return void held.push(chunk);
      if (flushing) clearTimeout(flushing);
      if (!raw.destroyed && !raw.writableEnded) raw.end(gathered + chunk);
    },
    open(headers) {
      if (headers) reply.headers(headers);
      const opened = openEventStream(reply);
      const events = held!.join('');
      held = null;
      // Not counted as a write: the answer's first text, if not among these, goes out as it comes.
      if (opened && events) raw.write(events);
    },
    waitedMs: () => (heldSince ? performance.now() - heldSince : 0),
    // A client gone before the stream opened has closed already: no 'close' would come.
    onClose: (fn) => onResponseClose(raw, fn),
  };
}
