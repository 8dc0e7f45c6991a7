// A time rule's verdict as its clock decides it (support/targetTime.ts): a target that shows no clock at all — no
// Date header, no creation stamp, neither of which the specs require — leaves the rule unverified with the reason,
// never failed; a clock that jumped fails it by an assertion naming it; Date headers from two clocks beside steady
// stamps judge on the stamps and are observed.
import { describe, expect, it } from 'vitest';
import { TargetClock } from '../src/client/targetClock.js';
import type { ApiClient } from '../src/client/types.js';
import { CLOCK_BOUNDS } from '../src/model/limits.js';
import type { CheckTools } from '../src/runner/check.js';
import { CheckFailed, CheckUnverified } from '../src/runner/expect.js';
import { expectOnTargetClock, type TimeRule } from '../support/targetTime.js';

const RULE: TimeRule = { requirement: 'POOLS-TTL-EXPIRES-AT', bound: CLOCK_BOUNDS.poolsQuoteTtl };

/** Just what the time rules use of a check's tools: assertions, unverified, observations. */
function tools() {
  const observed: string[] = [];
  const t = {
    observe: (topic: string) => void observed.push(topic),
    unverified: (reason: string): never => {
      throw new CheckUnverified(reason);
    },
    expect: {
      that: (ok: boolean, message: string, d?: { requirement?: never }) => {
        if (!ok) throw new CheckFailed(message, d ?? {});
      },
    },
  };
  return { t: t as unknown as CheckTools, observed };
}

/** Judge "expiresAt is 15 s after the request" on a client whose clock saw `feed`. */
function judge(feed: (c: TargetClock) => void) {
  const clock = new TargetClock();
  feed(clock);
  const { t, observed } = tools();
  const client = { clock } as unknown as ApiClient;
  const now = Date.now();
  try {
    expectOnTargetClock(t, client, RULE, { low: now + 15_000, high: now + 15_100 }, { min: now + 14_000, max: now + 16_000 }, 'expiresAt about 15 s ahead');
    return { outcome: 'passed', observed };
  } catch (e) {
    if (e instanceof CheckUnverified) return { outcome: 'unverified', why: e.reason, observed };
    if (e instanceof CheckFailed) return { outcome: 'failed', why: e.message, observed };
    throw e;
  }
}

describe('a time rule on the clock the target shows', () => {
  it('no Date header and no creation stamp: unverified with the reason, never failed', () => {
    const r = judge((c) => {
      for (let i = 0; i < 20; i++) c.observe(1_000 + i * 300, 1_200 + i * 300, undefined);
    });
    expect(r.outcome).toBe('unverified');
    expect(r.why).toMatch(/none of the target's 20 answers carried a Date header.*specs require neither/);
    expect(r.observed).toContain('target-no-date-header');
  });

  it('a clock that jumped fails the rule by an assertion', () => {
    const r = judge((c) => {
      let t = Date.now();
      for (let i = 0; i < 40; i++, t += 400) c.observe(t, t + 50, new Date(t + (i >= 30 ? 600_000 : 0)).toUTCString());
    });
    expect(r.outcome).toBe('failed');
    expect(r.why).toMatch(/the target's clock can be read to judge this rule: the target's Date headers jumped/);
  });

  it('Date headers from two clocks in turn, beside steady stamps: judged on the stamps (passed), the two clocks observed', () => {
    const r = judge((c) => {
      let t = Date.now();
      for (let i = 0; i < 40; i++, t += 400) {
        c.observe(t, t + 20, new Date(t + 10 + (i % 2 ? -4_000 : 0)).toUTCString());
        if (i % 4 === 0) c.stamp(t, t + 20, new Date(t + 10).toISOString());
      }
    });
    expect(r.outcome).toBe('passed');
    expect(r.observed).toContain('target-date-headers-two-clocks');
  });
});
