// A check's budget counts only waits on the target: rampart's own pacing and
// leases never do, and an expiry names what the check was waiting for.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Budget } from '../src/runner/budget.js';

const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('Budget', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('does not count time spent in harness waits (pacer queues, leases)', async () => {
    const expired = vi.fn();
    const b = new Budget({ limitMs: 1_000, onExpired: expired });
    const p = b.harness('rate-window pacing', wait(10_000));
    await vi.advanceTimersByTimeAsync(10_000);
    await p;
    expect(expired).not.toHaveBeenCalled();
    expect(b.counted()).toBeLessThan(50);
    expect(b.uncounted()).toBeGreaterThanOrEqual(10_000);
    b.stop();
  });

  it('expires after the limit of target time and names what it waited for', async () => {
    const expired = vi.fn();
    const b = new Budget({ limitMs: 1_000, onExpired: expired });
    void b.harness('rate-window pacing', wait(5_000));
    await vi.advanceTimersByTimeAsync(5_000);
    void b.target('an answer to GET /gate_sessions', wait(3_000));
    await vi.advanceTimersByTimeAsync(900);
    expect(expired).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(200);
    expect(expired).toHaveBeenCalledTimes(1);
    const reason = expired.mock.calls[0]![0] as string;
    expect(reason).toMatch(/an answer to GET \/gate_sessions/);
    expect(reason).toMatch(/1\.0 s budget/);
    expect(reason).toMatch(/5\.0 s queued behind rampart's own pacing was not counted/);
    b.stop();
  });

  it('overlapping harness waits pause the clock once', async () => {
    const b = new Budget({ limitMs: 60_000, onExpired: () => undefined });
    const a = b.harness('a', wait(2_000));
    await vi.advanceTimersByTimeAsync(1_000);
    const c = b.harness('b', wait(2_000));
    await vi.advanceTimersByTimeAsync(2_000);
    await Promise.all([a, c]);
    expect(b.uncounted()).toBe(3_000);
    expect(b.counted()).toBe(0);
    b.stop();
  });

  it('extend() adds a documented wait of known length', async () => {
    const expired = vi.fn();
    const b = new Budget({ limitMs: 1_000, onExpired: expired });
    b.extend(2_000);
    await vi.advanceTimersByTimeAsync(2_500);
    expect(expired).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(600);
    expect(expired).toHaveBeenCalledTimes(1);
    b.stop();
  });
});
