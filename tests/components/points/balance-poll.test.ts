import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BALANCE_POLL_INTERVAL_MS,
  BALANCE_POLL_LIMIT_MS,
  balancePollRunning,
  pointsBalanceKey,
  pollBalanceAfterAnswer,
  startBalancePoll,
  stopBalancePoll,
} from '../../../shared/api/points-balance.ts';
import { ApiError } from '../../../shared/api/request.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { IntegralEntry } from '../../../shared/contracts/user.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';

const entries = (used: number, available = 100 - used): IntegralEntry[] => [{ integralType: 1, integralValue: available, useIntegral: used }];

/** A balance reader answering the spent points of `useds` in turn (the last one from then on). */
function reader(...useds: number[]) {
  let calls = 0;
  const signals: AbortSignal[] = [];
  const fetchBalance = vi.fn(async (signal: AbortSignal) => {
    signals.push(signal);
    return entries(useds[Math.min(calls++, useds.length - 1)]);
  });
  return { fetchBalance, signals };
}

describe('the balance poll (fake timers)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    stopBalancePoll();
    vi.useRealTimers();
  });

  it('reads at once, then every 500 ms, and stops when the spent points change', async () => {
    const { fetchBalance } = reader(5, 5, 5, 8);
    const onBalance = vi.fn();
    const poll = startBalancePoll({ from: 5, onBalance, fetchBalance })!;
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchBalance).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(BALANCE_POLL_INTERVAL_MS - 1);
    expect(fetchBalance).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchBalance).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2 * BALANCE_POLL_INTERVAL_MS);
    await expect(poll.done).resolves.toBe('changed');
    expect(fetchBalance).toHaveBeenCalledTimes(4);
    expect(onBalance).toHaveBeenLastCalledWith(entries(8));
    expect(balancePollRunning()).toBe(false);
    // Nothing more once it has seen the change.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(fetchBalance).toHaveBeenCalledTimes(4);
  });

  it('refuses a second poll while one runs, and allows one after it ended', async () => {
    const first = startBalancePoll({ from: 1, onBalance: vi.fn(), fetchBalance: reader(1).fetchBalance });
    expect(first).not.toBeNull();
    const second = reader(2);
    expect(startBalancePoll({ from: 1, onBalance: vi.fn(), fetchBalance: second.fetchBalance })).toBeNull();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(second.fetchBalance).not.toHaveBeenCalled();

    first!.stop();
    await expect(first!.done).resolves.toBe('stopped');
    const third = startBalancePoll({ from: 1, onBalance: vi.fn(), fetchBalance: second.fetchBalance });
    expect(third).not.toBeNull();
    await vi.advanceTimersByTimeAsync(0);
    await expect(third!.done).resolves.toBe('changed');
  });

  it('gives up after its limit (about 10 s) when nothing changes', async () => {
    const { fetchBalance } = reader(3);
    const poll = startBalancePoll({ from: 3, onBalance: vi.fn(), fetchBalance })!;
    let ended: string | undefined;
    void poll.done.then((how) => (ended = how));
    await vi.advanceTimersByTimeAsync(BALANCE_POLL_LIMIT_MS - BALANCE_POLL_INTERVAL_MS);
    expect(ended).toBeUndefined();
    await vi.advanceTimersByTimeAsync(BALANCE_POLL_INTERVAL_MS);
    expect(ended).toBe('limit');
    // One reading at once and one every 500 ms up to 10 s.
    expect(fetchBalance).toHaveBeenCalledTimes(BALANCE_POLL_LIMIT_MS / BALANCE_POLL_INTERVAL_MS + 1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchBalance).toHaveBeenCalledTimes(BALANCE_POLL_LIMIT_MS / BALANCE_POLL_INTERVAL_MS + 1);
  });

  it('stops on demand: the reading in flight is aborted and no other follows', async () => {
    let release: (value: IntegralEntry[]) => void = () => {};
    const signals: AbortSignal[] = [];
    const fetchBalance = vi.fn(
      (signal: AbortSignal) =>
        new Promise<IntegralEntry[]>((resolve) => {
          signals.push(signal);
          release = resolve;
        }),
    );
    const onBalance = vi.fn();
    const poll = startBalancePoll({ from: 0, onBalance, fetchBalance })!;
    await vi.advanceTimersByTimeAsync(0);
    stopBalancePoll();
    expect(signals[0].aborted).toBe(true);
    release(entries(9));
    await expect(poll.done).resolves.toBe('stopped');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(onBalance).not.toHaveBeenCalled();
    expect(fetchBalance).toHaveBeenCalledTimes(1);
  });

  it('skips a failed reading, and ends when logged out (10402)', async () => {
    let call = 0;
    const fetchBalance = vi.fn(async () => {
      call += 1;
      if (call === 1) throw new ApiError(Codes.ServerError, 'network error');
      if (call === 2) return entries(4);
      throw new ApiError(Codes.NotLoggedIn, 'Please Login');
    });
    const poll = startBalancePoll({ from: 4, onBalance: vi.fn(), fetchBalance })!;
    await vi.advanceTimersByTimeAsync(3 * BALANCE_POLL_INTERVAL_MS);
    await expect(poll.done).resolves.toBe('stopped');
    expect(fetchBalance).toHaveBeenCalledTimes(3);
  });

  it('takes the first reading when the spent points before are unknown', async () => {
    const { fetchBalance } = reader(7);
    const poll = startBalancePoll({ from: undefined, onBalance: vi.fn(), fetchBalance })!;
    await vi.advanceTimersByTimeAsync(0);
    await expect(poll.done).resolves.toBe('changed');
    expect(fetchBalance).toHaveBeenCalledTimes(1);
  });
});

describe('the balance after an answer', () => {
  let readings = 0;
  const server = serveTheseTests(
    fakeApi({
      // The answer's points are booked by the third reading.
      '/api/User/GetUserIntegralByLogin': (_req, res) => sendEnvelope(res, { Code: 10000, Data: entries(++readings < 3 ? 10 : 13) }),
      '/api/User/GetUserIntegralLogList': answer({ list: [], total: 0 }),
    }),
  );
  beforeEach(() => (readings = 0));

  it('polls GetUserIntegralByLogin into the balance every surface shows, then reads the history again', async () => {
    const queryClient = new QueryClient();
    const history = vi.spyOn(queryClient, 'invalidateQueries');
    queryClient.setQueryData(pointsBalanceKey('t1'), entries(10));
    const poll = pollBalanceAfterAnswer(queryClient, 't1', 10)!;
    await expect(poll.done).resolves.toBe('changed');
    expect(queryClient.getQueryData(pointsBalanceKey('t1'))).toEqual(entries(13));
    expect(server.requests.filter((r) => r.url.startsWith('/api/User/GetUserIntegralByLogin'))).toHaveLength(3);
    await vi.waitFor(() => expect(history).toHaveBeenCalledWith({ queryKey: ['points-history'] }));
    // Signed out: nothing to poll.
    expect(pollBalanceAfterAnswer(queryClient, null, 10)).toBeNull();
  });
});
