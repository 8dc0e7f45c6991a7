// The pacer mirrors the documented Gate windows per key; a fake clock makes time explicit.
import { describe, expect, it } from 'vitest';
import { HourWindowFull, PAUSED_PRESSURE, Pacer, type PauseEvent } from '../src/client/pacer.js';

const SEC = 1000;
const MIN = 60 * SEC;
const MARGIN = 150;

function fakeClock(opts: { refuseHourWait?: boolean } = {}) {
  const clock = { now: 0, slept: [] as number[] };
  const pacer = new Pacer({
    ...opts,
    now: () => clock.now,
    sleep: async (ms) => {
      clock.slept.push(ms);
      clock.now += ms;
    },
    margin: MARGIN,
  });
  return { clock, pacer };
}

/** Acquire n times in sequence; returns the clock time at which each was granted. */
async function grantTimes(pacer: Pacer, clock: { now: number }, key: string, method: string, path: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    await pacer.acquire(key, method, path);
    out.push(clock.now);
  }
  return out;
}

describe('Pacer', () => {
  it('a quick run refuses the request that would wait for the hour window (HourWindowFull); a full run waits for it', async () => {
    const quick = fakeClock({ refuseHourWait: true });
    const sent = await grantTimes(quick.pacer, quick.clock, 'k', 'GET', '/customers/cus_1', 300);
    expect(sent.at(-1)).toBeLessThan(60 * MIN);
    await expect(quick.pacer.acquire('k', 'GET', '/customers/cus_1')).rejects.toBeInstanceOf(HourWindowFull);
    // Another key's hour is its own.
    await expect(quick.pacer.acquire('other', 'GET', '/customers/cus_1')).resolves.toBeTypeOf('function');

    const full = fakeClock();
    await grantTimes(full.pacer, full.clock, 'k', 'GET', '/customers/cus_1', 300);
    await full.pacer.acquire('k', 'GET', '/customers/cus_1');
    expect(full.clock.now).toBeGreaterThanOrEqual(60 * MIN);
  });

  it('default group: 10 in 10 s at once, the 11th waits until the first leaves the window (+margin)', async () => {
    const { clock, pacer } = fakeClock();
    const times = await grantTimes(pacer, clock, 'k', 'GET', '/dashboard/webhook-settings', 11);
    expect(times.slice(0, 10)).toEqual(Array(10).fill(0));
    expect(times[10]).toBe(10 * SEC + MARGIN);
  });

  it('estimates the wait and reports pressure without consuming', async () => {
    const { clock, pacer } = fakeClock();
    expect(pacer.waitEstimateMs('k', 'GET', '/dashboard/webhook-settings')).toBe(0);
    expect(pacer.pressure('k')).toBe(0);
    await grantTimes(pacer, clock, 'k', 'GET', '/dashboard/webhook-settings', 5);
    expect(pacer.pressure('k')).toBeCloseTo(0.5);
    await grantTimes(pacer, clock, 'k', 'GET', '/dashboard/webhook-settings', 5);
    expect(pacer.pressure('k')).toBeCloseTo(1);
    expect(pacer.waitEstimateMs('k', 'GET', '/dashboard/webhook-settings')).toBe(10 * SEC + MARGIN);
    clock.now = 4 * SEC;
    expect(pacer.waitEstimateMs('k', 'GET', '/dashboard/webhook-settings')).toBe(6 * SEC + MARGIN);
    // A different group of the same key is not bound by the default group's first window.
    expect(pacer.waitEstimateMs('k', 'GET', '/gate_sessions')).toBe(0);
  });

  it('POST /gate_sessions: 10 per minute', async () => {
    const { clock, pacer } = fakeClock();
    const times = await grantTimes(pacer, clock, 'k', 'POST', '/gate_sessions', 11);
    expect(times.slice(0, 10)).toEqual(Array(10).fill(0));
    expect(times[10]).toBe(MIN + MARGIN);
  });

  it('30/min group (POST /quotes) and 60/min group (GET /customers/{id})', async () => {
    const a = fakeClock();
    const q = await grantTimes(a.pacer, a.clock, 'k', 'POST', '/quotes', 31);
    expect(q.slice(0, 30)).toEqual(Array(30).fill(0));
    expect(q[30]).toBe(MIN + MARGIN);

    const b = fakeClock();
    const r = await grantTimes(b.pacer, b.clock, 'k', 'GET', '/customers/cus_1', 61);
    expect(r.slice(0, 60)).toEqual(Array(60).fill(0));
    expect(r[60]).toBe(MIN + MARGIN);
  });

  it('the 60/min window counts every request of the key across groups', async () => {
    const { clock, pacer } = fakeClock();
    // 30 quote writes, 10 session creates, then reads: the 21st read hits 60/min, not 60/min-of-reads.
    await grantTimes(pacer, clock, 'k', 'POST', '/quotes', 30);
    await grantTimes(pacer, clock, 'k', 'POST', '/gate_sessions', 10);
    const reads = await grantTimes(pacer, clock, 'k', 'GET', '/gate_sessions/gs_1', 21);
    expect(reads.slice(0, 20)).toEqual(Array(20).fill(0));
    expect(reads[20]).toBe(MIN + MARGIN);
  });

  it('300 per hour', async () => {
    const { clock, pacer } = fakeClock();
    const times = await grantTimes(pacer, clock, 'k', 'GET', '/gate_sessions', 301);
    // 60 per minute for five minutes fills the hour.
    expect(times[299]).toBeLessThan(5 * MIN);
    expect(times[300]).toBeGreaterThanOrEqual(60 * MIN);
    expect(times[300]).toBe(60 * MIN + MARGIN);
    // No window was ever over its limit.
    for (let i = 0; i < times.length; i++) {
      const inMinute = times.filter((t) => t <= times[i]! && t > times[i]! - MIN).length;
      expect(inMinute).toBeLessThanOrEqual(60);
    }
  });

  it('keys are independent', async () => {
    const { clock, pacer } = fakeClock();
    await grantTimes(pacer, clock, 'k1', 'POST', '/gate_sessions', 10);
    expect(pacer.waitEstimateMs('k1', 'POST', '/gate_sessions')).toBeGreaterThan(0);
    expect(pacer.waitEstimateMs('k2', 'POST', '/gate_sessions')).toBe(0);
    const t = await grantTimes(pacer, clock, 'k2', 'POST', '/gate_sessions', 10);
    expect(t).toEqual(Array(10).fill(0));
    expect(pacer.pressure('k1')).toBeCloseTo(1);
    expect(pacer.pressure('k3')).toBe(0);
  });

  it('serves concurrent callers of one key in FIFO order', async () => {
    const { clock, pacer } = fakeClock();
    const order: number[] = [];
    const all = Array.from({ length: 25 }, (_, i) => pacer.acquire('k', 'GET', '/dashboard/webhook-settings').then(() => order.push(i)));
    await Promise.all(all);
    expect(order).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(clock.now).toBe(2 * (10 * SEC + MARGIN));
  });

  it('an aborted waiter leaves the queue; the others go on', async () => {
    let now = 0;
    let wake: (() => void) | undefined;
    const pacer = new Pacer({
      now: () => now,
      sleep: (ms, signal) =>
        new Promise<void>((resolve, reject) => {
          wake = () => {
            now += ms;
            resolve();
          };
          signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        }),
    });
    for (let i = 0; i < 10; i++) await pacer.acquire('k', 'POST', '/gate_sessions');
    const ac = new AbortController();
    const aborted = pacer.acquire('k', 'POST', '/gate_sessions', ac.signal);
    const next = pacer.acquire('k', 'POST', '/gate_sessions');
    await Promise.resolve();
    ac.abort();
    await expect(aborted).rejects.toThrow(/aborted/);
    for (let i = 0; i < 5 && wake; i++) {
      const w = wake;
      wake = undefined;
      w();
      await new Promise((r) => setImmediate(r));
    }
    await next;
    expect(now).toBeGreaterThanOrEqual(MIN);
  });

  it('pause: queued and new requests on the key wait until the pause ends; other keys do not', async () => {
    const { clock, pacer } = fakeClock();
    pacer.pause('k', 30 * SEC);
    expect(pacer.pausedUntil('k')).toBe(30 * SEC);
    expect(pacer.pausedUntil('other')).toBeUndefined();
    const order: string[] = [];
    await pacer.acquire('other', 'GET', '/gate_sessions');
    order.push(`other@${clock.now}`);
    const waits = [
      pacer.acquire('k', 'GET', '/gate_sessions').then(() => order.push(`k1@${clock.now}`)),
      pacer.acquire('k', 'GET', '/gate_sessions').then(() => order.push(`k2@${clock.now}`)),
    ];
    await Promise.all(waits);
    // The other key went at once; both queued requests on k only after 30 s (+ margin).
    expect(order).toEqual(['other@0', `k1@${30 * SEC + MARGIN}`, `k2@${30 * SEC + MARGIN}`]);
    expect(pacer.pausedUntil('k')).toBeUndefined();
  });

  it('a pause extends but never shortens, and each pause is announced to listeners', async () => {
    const { clock, pacer } = fakeClock();
    const events: PauseEvent[] = [];
    const off = pacer.onPause((e) => events.push(e));
    pacer.pause('k', 10 * SEC);
    pacer.pause('k', 5 * SEC);
    pacer.pause('k', 20 * SEC);
    clock.now = 25 * SEC;
    pacer.pause('k', 20 * SEC);
    off();
    pacer.pause('k', 60 * SEC);
    expect(events.map((e) => [e.key, e.untilMs, e.pausedMs])).toEqual([
      ['k', 10 * SEC, 10 * SEC],
      ['k', 20 * SEC, 20 * SEC],
    ]);
    expect(pacer.pausedUntil('k')).toBe(60 * SEC);
  });

  it('a paused key counts as fully busy, so the least-pressure key is another one; estimates include the pause', async () => {
    const { clock, pacer } = fakeClock();
    await grantTimes(pacer, clock, 'busy', 'GET', '/dashboard/webhook-settings', 10);
    expect(pacer.pressure('busy')).toBeCloseTo(1);
    pacer.pause('paused', MIN);
    expect(pacer.pressure('paused')).toBe(PAUSED_PRESSURE);
    expect(pacer.pressure('paused')).toBeGreaterThan(pacer.pressure('busy') + 10);
    expect(pacer.waitEstimateMs('paused', 'GET', '/gate_sessions')).toBe(MIN + MARGIN);
    clock.now = MIN + 1;
    expect(pacer.pressure('paused')).toBe(0);
  });

  it("paceWindows false: no client-side windows, only the target's pauses", async () => {
    const clock = { now: 0 };
    const pacer = new Pacer({ now: () => clock.now, sleep: async (ms) => void (clock.now += ms), margin: 0, paceWindows: false });
    const times = await grantTimes(pacer, clock, 'k', 'POST', '/gate_sessions', 50);
    expect(times).toEqual(Array(50).fill(0));
    pacer.pause('k', 5 * SEC);
    await pacer.acquire('k', 'GET', '/pools');
    expect(clock.now).toBe(5 * SEC);
  });

  describe('chains granted as one block (reserve)', () => {
    const PAY_OUT = { method: 'POST', path: '/rails/pay_outs' };
    const LOCK = { method: 'POST', path: '/quotes' };

    it('a block on a free key is granted at once, and its steps never queue behind other waiters', async () => {
      const { clock, pacer } = fakeClock();
      const res = await pacer.reserve('k', [LOCK, PAY_OUT, PAY_OUT]);
      expect(clock.now).toBe(0);
      // 60 reads queue on the key: the minute window (57 free after the block) holds only 57 of them now.
      const reads = Array.from({ length: 60 }, () => pacer.acquire('k', 'GET', '/gate_sessions'));
      // (The fake clock's sleeps are instant: the reads' one-minute wait has already been slept.)
      const sleptBefore = clock.slept.length;
      await res.within(async () => {
        await pacer.acquire('k', 'POST', '/quotes');
        await pacer.acquire('k', 'POST', '/rails/pay_outs');
      });
      // The steps took their granted slots without any wait of their own.
      expect(clock.slept.length).toBe(sleptBefore);
      expect(res.remaining()).toBe(1);
      await Promise.all(reads);
      // The reads went in turn: 57 at 0 s, the last 3 a minute later.
      expect(clock.slept).toEqual([MIN + MARGIN]);
    });

    it('a block waits until every step fits at the same instant', async () => {
      const { clock, pacer } = fakeClock();
      await grantTimes(pacer, clock, 'k', 'POST', '/quotes', 29);
      // write30: 29 of 30 used at 0; a block of 3 write30 steps needs two more slots to leave.
      await pacer.reserve('k', [LOCK, PAY_OUT, PAY_OUT]);
      expect(clock.now).toBe(MIN + MARGIN);
    });

    it('single requests behind a waiting block never take the slots it waits for', async () => {
      const { clock, pacer } = fakeClock();
      await grantTimes(pacer, clock, 'k', 'POST', '/quotes', 28);
      clock.now = 30 * SEC;
      await grantTimes(pacer, clock, 'k', 'POST', '/quotes', 1);
      const order: string[] = [];
      const block = pacer.reserve('k', [LOCK, PAY_OUT, PAY_OUT]).then(() => order.push(`block@${clock.now}`));
      const single = pacer.acquire('k', 'POST', '/rails/pay_outs').then(() => order.push(`single@${clock.now}`));
      await Promise.all([block, single]);
      // The single write fits at 0 s (29 < 30) but would push the block past 60 s: it waits behind it.
      expect(order[0]).toBe(`block@${MIN + MARGIN}`);
    });

    it('a slot used after the grant is counted from its send; an unused one is given back', async () => {
      const { clock, pacer } = fakeClock();
      const res = await pacer.reserve('k', [PAY_OUT, PAY_OUT]);
      clock.now = 50 * SEC;
      await res.within(() => pacer.acquire('k', 'POST', '/rails/pay_outs').then((settle) => settle(51 * SEC)));
      res.release();
      // At 61 s the used slot (counted from 51 s) is still inside the minute of write30; the released one is gone.
      clock.now = 61 * SEC;
      expect(pacer.waitEstimateMs('k', 'POST', '/rails/pay_outs')).toBe(0);
      await grantTimes(pacer, clock, 'k', 'POST', '/rails/pay_outs', 29);
      expect(clock.now).toBe(61 * SEC);
      await pacer.acquire('k', 'POST', '/rails/pay_outs');
      expect(clock.now).toBe(51 * SEC + MIN + MARGIN);
    });

    it('a block larger than a window it fills is refused at once', async () => {
      const { pacer } = fakeClock();
      await expect(pacer.reserve('k', Array(11).fill({ method: 'POST', path: '/gate_sessions' }))).rejects.toThrow(/exceeds/);
    });

    it('requests outside within() of another key or group queue as usual', async () => {
      const { clock, pacer } = fakeClock();
      const res = await pacer.reserve('k', [PAY_OUT]);
      await grantTimes(pacer, clock, 'k', 'POST', '/quotes', 29);
      // Outside within(): the 30th write30 request finds the window full (29 + the reserved slot).
      const late = pacer.acquire('k', 'POST', '/quotes');
      await res.within(() => pacer.acquire('k', 'POST', '/rails/pay_outs'));
      await late;
      expect(clock.now).toBe(MIN + MARGIN);
    });
  });
  it('a hold keeps every request of the key until it ends; watchers hear each answer with its status; sendNow counts in the windows', async () => {
    const { clock, pacer } = fakeClock();
    const heard: { status?: number; sentAt: number; answeredAt: number }[] = [];
    const off = pacer.watch('k', (r) => heard.push(r));
    pacer.hold('k', 5 * SEC);
    const settle = await pacer.acquire('k', 'GET', '/branding');
    expect(clock.now).toBeGreaterThanOrEqual(5 * SEC);
    expect(pacer.inFlight('k')).toBe(1);
    clock.now += 40;
    settle(undefined, 200);
    expect(pacer.inFlight('k')).toBe(0);
    expect(heard).toEqual([{ method: 'GET', path: '/branding', sentAt: clock.now - 40, answeredAt: clock.now, status: 200 }]);
    // A request sent past the pacer fills the windows like any other: its group's room shrinks.
    const before = pacer.firstWindowRoom('k', 'GET', '/dashboard/webhook-settings');
    pacer.sendNow('k', 'GET', '/dashboard/webhook-settings')(clock.now, 429);
    expect(pacer.firstWindowRoom('k', 'GET', '/dashboard/webhook-settings')).toBe(before - 1);
    expect(pacer.sentWithin('k', MIN)).toBe(2);
    expect(heard.at(-1)?.status).toBe(429);
    // Another key is never held by this one's hold.
    pacer.hold('k', clock.now + MIN);
    const t = clock.now;
    await pacer.acquire('other', 'GET', '/branding');
    expect(clock.now).toBe(t);
    off();
  });
});
