/**
 * An open-loop load generator on undici: requests arrive at a fixed average rate as independent
 * users' would (exponential gaps: a Poisson process), whether or not earlier answers have ended, and
 * each is timed from the moment it was due, so a generator or server that falls behind shows in the
 * figures instead of hiding them. Every request is timed to its first text and read to its end.
 *
 * autocannon, used before, is not open-loop at a rate: it gives each connection `rate / connections`
 * requests per second and resets every connection's count on a one-second timer started with the
 * connection. All 200 connections start together, so a run at 200/s sent one burst of 200 requests
 * at the start of each second and waited, and the figures measured how fast a burst drains.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Pool } from 'undici';
import { serverTimingOf } from '../harness.ts';

export type Outcome = {
  /** From when the request was due to its first text (ms); -1 when none came. */
  ttft: number;
  /** From when the request was due to the end of its body (ms). */
  total: number;
  ok: boolean;
  /** Tandem's Server-Timing figures (prepare, store, wait), when it sent them. */
  timing?: Record<string, number>;
};

export type LoadRun = {
  outcomes: Outcome[];
  /** Why requests failed, by kind (status, error class, a refusal's Code, no end). */
  failures: Map<string, number>;
  /** The generator's own event-loop delay p99 and how late it sent its latest request (ms): large values mean the client, not the server, was behind. */
  clientDelayP99: number;
  maxLateMs: number;
};

export type LoadSpec = {
  origin: string;
  path: string;
  /** Requests per second, on average. */
  rate: number;
  seconds: number;
  connections: number;
  /** Headers and body of the next request. */
  next: () => { headers: Record<string, string>; body: string };
  /** Tandem's stream (`{Code, Msg, Data}` events, then `data: DONE`) or the OpenAI protocol (the bare hop). */
  protocol: 'tandem' | 'openai';
};

/** The first text of either protocol: a non-empty OutputMessage or delta content. */
const FIRST_TEXT = { tandem: /"OutputMessage":"[^"]/, openai: /"content":"[^"]/ };
const END = { tandem: 'data: DONE', openai: 'data: [DONE]' };
/** A Tandem event whose Code is not success (10000). */
const REFUSED = /"Code":(?!10000\D)(\d+)/;
/** Enough of the previous chunk to find a pattern that straddles two chunks. */
const KEEP = 48;
/** The generator's loop-delay histogram counts its sampling interval too; it is taken off what is reported. */
const LOOP_RESOLUTION_MS = 5;

export async function openLoop(spec: LoadSpec): Promise<LoadRun> {
  const pool = new Pool(spec.origin, { connections: spec.connections, pipelining: 1, headersTimeout: 10_000, bodyTimeout: 10_000 });
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loop.enable();
  const outcomes: Outcome[] = [];
  const failures = new Map<string, number>();
  const fail = (why: string) => failures.set(why, (failures.get(why) ?? 0) + 1);
  const pending: Promise<void>[] = [];

  const send = (due: number) =>
    new Promise<void>((settle) => {
      const { headers, body } = spec.next();
      const o: Outcome = { ttft: -1, total: -1, ok: false };
      let tail = '';
      let status = 0;
      let refused = '';
      const done = (why: string | null) => {
        o.total = performance.now() - due;
        o.ok = why === null;
        if (why) fail(why);
        outcomes.push(o);
        settle();
      };
      pool.dispatch(
        { method: 'POST', path: spec.path, headers: { 'content-type': 'application/json', ...headers }, body },
        {
          onConnect() {},
          onError: (err: Error) => done(err.name || 'error'),
          onHeaders(statusCode: number, raw: Buffer[]) {
            status = statusCode;
            for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toString('latin1').toLowerCase() === 'server-timing') o.timing = serverTimingOf(raw[i + 1]!.toString('latin1'));
            return true;
          },
          onData(chunk: Buffer) {
            const text = tail + chunk.toString('latin1');
            if (o.ttft < 0 && FIRST_TEXT[spec.protocol].test(text)) o.ttft = performance.now() - due;
            if (spec.protocol === 'tandem' && !refused) refused = REFUSED.exec(text)?.[1] ?? '';
            tail = text.slice(-KEEP);
            return true;
          },
          onComplete() {
            if (status !== 200) done(`HTTP ${status}`);
            else if (refused) done(`Code ${refused}`);
            else if (!tail.includes(END[spec.protocol])) done('no end');
            else if (o.ttft < 0) done('no text');
            else done(null);
          },
        },
      );
    });

  // Poisson arrivals: each gap drawn from the exponential distribution of the rate.
  const start = performance.now();
  const end = start + spec.seconds * 1000;
  let due = start;
  let maxLateMs = 0;
  await new Promise<void>((finish) => {
    const tick = () => {
      const now = performance.now();
      while (due <= now && due < end) {
        maxLateMs = Math.max(maxLateMs, now - due);
        pending.push(send(due));
        due += (-Math.log(1 - Math.random()) * 1000) / spec.rate;
      }
      if (due >= end) return finish();
      setTimeout(tick, Math.max(0, Math.min(1, due - performance.now())));
    };
    tick();
  });
  await Promise.all(pending);
  loop.disable();
  await pool.close();
  return { outcomes, failures, clientDelayP99: Math.max(0, loop.percentile(99) / 1e6 - LOOP_RESOLUTION_MS), maxLateMs };
}
