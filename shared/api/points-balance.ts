import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { Codes } from '../contracts/envelope.ts';
import type { IntegralEntry } from '../contracts/user.ts';
import { ApiError } from './request.ts';
import { getUserIntegralByLogin } from './user.ts';

/**
 * The points balance as every surface shares it (one query-cache entry per login), and the poll that
 * follows it after an answer. Kept apart from the rest of the points calls (points.ts): the chat
 * loads this with its first screen, the rest loads with the points screens.
 */

/** Today's free allowance: what is left of `daily`, refilled at `resetsAt` (an ISO instant). */
export interface FreeAllowance {
  left: number;
  daily: number;
  resetsAt: string;
}

/**
 * The main balance: `available` is what can be spent now (today's free allowance left included);
 * `used` is spent so far. Its parts, when the server tells them (older servers do not): `free`,
 * today's allowance, and `kept`, the points that do not reset.
 */
export interface PointsBalance {
  available: number;
  used: number;
  free?: FreeAllowance;
  kept?: number;
}

/** The main (integralType 1) entry as a balance; null when the answer has none. */
export function balanceOf(entries: readonly IntegralEntry[] | undefined): PointsBalance | null {
  const main = entries?.find((entry) => entry.integralType === 1);
  if (!main) return null;
  const { freeLeft, freeDaily, freeResetsAt, kept } = main;
  const free = freeLeft !== undefined && freeDaily !== undefined && freeResetsAt !== undefined ? { left: freeLeft, daily: freeDaily, resetsAt: freeResetsAt } : undefined;
  return { available: main.integralValue, used: main.useIntegral, ...(free && { free }), ...(kept !== undefined && { kept }) };
}

/** The balance's cache entry: the same as the popup's (GetUserIntegralByLogin's entries as answered). */
export const pointsBalanceKey = (token: string | null) => ['user-integral', token] as const;

export function pointsBalanceQuery(token: string | null) {
  return queryOptions({
    queryKey: pointsBalanceKey(token),
    queryFn: ({ signal }) => getUserIntegralByLogin(signal),
    enabled: token !== null,
    staleTime: 30_000,
  });
}

export const BALANCE_POLL_INTERVAL_MS = 500;
export const BALANCE_POLL_LIMIT_MS = 10_000;

/** How a poll ended: the spent points changed, the time ran out, or it was stopped (or logged out). */
export type BalancePollEnd = 'changed' | 'limit' | 'stopped';

export interface BalancePoll {
  readonly done: Promise<BalancePollEnd>;
  stop(): void;
}

export interface BalancePollOptions {
  /** useIntegral before the answer; undefined when unknown, and then the first reading ends the poll. */
  from: number | undefined;
  /** Each reading, as answered. */
  onBalance: (entries: IntegralEntry[]) => void;
  fetchBalance?: (signal: AbortSignal) => Promise<IntegralEntry[]>;
  intervalMs?: number;
  limitMs?: number;
}

let running: BalancePoll | null = null;

/**
 * Reads the balance now and then every 500 ms until `useIntegral` differs from `from` (the answer's
 * points are booked), for at most 10 s. One poll at a time: while one runs, another is refused
 * (null). A reading that fails is skipped, except 10402 (logged out), which ends the poll.
 */
export function startBalancePoll(options: BalancePollOptions): BalancePoll | null {
  if (running) return null;
  const interval = options.intervalMs ?? BALANCE_POLL_INTERVAL_MS;
  const limit = options.limitMs ?? BALANCE_POLL_LIMIT_MS;
  const fetchBalance = options.fetchBalance ?? getUserIntegralByLogin;
  const controller = new AbortController();
  const startedAt = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finish!: (end: BalancePollEnd) => void;
  const done = new Promise<BalancePollEnd>((resolve) => (finish = resolve));

  const end = (how: BalancePollEnd) => {
    if (controller.signal.aborted) return;
    controller.abort();
    clearTimeout(timer);
    if (running === poll) running = null;
    finish(how);
  };

  const read = async () => {
    try {
      const entries = await fetchBalance(controller.signal);
      if (controller.signal.aborted) return;
      options.onBalance(entries);
      const used = balanceOf(entries)?.used;
      if (options.from === undefined || (used !== undefined && used !== options.from)) return end('changed');
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof ApiError && error.code === Codes.NotLoggedIn) return end('stopped');
    }
    if (Date.now() - startedAt + interval > limit) return end('limit');
    timer = setTimeout(() => void read(), interval);
  };

  const poll: BalancePoll = { done, stop: () => end('stopped') };
  running = poll;
  void read();
  return poll;
}

/** Stops the poll running now, if any. */
export function stopBalancePoll(): void {
  running?.stop();
}

export function balancePollRunning(): boolean {
  return running !== null;
}

/** The spent points the cache knows for this login, to compare an answer's readings with. */
export function cachedPointsUsed(queryClient: QueryClient, token: string | null): number | undefined {
  return balanceOf(queryClient.getQueryData<IntegralEntry[]>(pointsBalanceKey(token)))?.used;
}

/**
 * After an answer: polls the balance into the cache (every surface showing it follows), then reads
 * the history again. `from` is useIntegral before the message was sent.
 */
export function pollBalanceAfterAnswer(queryClient: QueryClient, token: string | null, from: number | undefined): BalancePoll | null {
  if (token === null) return null;
  const poll = startBalancePoll({ from, onBalance: (entries) => queryClient.setQueryData(pointsBalanceKey(token), entries) });
  void poll?.done.then(() => queryClient.invalidateQueries({ queryKey: ['points-history'] }));
  return poll;
}
