// The lower bound the Gate windows force, from the documented limits alone.
import { describe, expect, it } from 'vitest';
import { formatDuration, groupCounts, keyLowerBoundMs, spentLowerBound, spreadLowerBoundMs } from '../src/plan/lowerBound.js';

const S = 1000;
const reqs = (n: number, method = 'GET', path = '/dashboard/webhook-settings') => Array.from({ length: n }, () => ({ method, path }));

describe('rate-window lower bound of one key', () => {
  it('10 per 10 s on a default route: the 11th request is 10 s after the first', () => {
    expect(keyLowerBoundMs(groupCounts(reqs(10)))).toBe(0);
    expect(keyLowerBoundMs(groupCounts(reqs(11)))).toBe(10 * S);
    expect(keyLowerBoundMs(groupCounts(reqs(300)))).toBe(290 * S);
  });

  it('route groups replace only the first window: 60 reads fit in a minute, the minute window binds after', () => {
    expect(keyLowerBoundMs(groupCounts(reqs(60, 'GET', '/branding')))).toBe(0);
    expect(keyLowerBoundMs(groupCounts(reqs(61, 'GET', '/branding')))).toBe(60 * S);
    expect(keyLowerBoundMs(groupCounts(reqs(11, 'POST', '/gate_sessions')))).toBe(60 * S);
  });

  it('the minute and hour windows compose: 390 requests need 1 h 1 min', () => {
    const mixed = [...reqs(130, 'GET', '/branding'), ...reqs(130, 'PATCH', '/branding'), ...reqs(130, 'GET', '/capabilities/assets')];
    expect(keyLowerBoundMs(groupCounts(mixed))).toBe(3_660 * S);
    expect(keyLowerBoundMs(groupCounts(mixed.slice(0, 300)))).toBe(240 * S);
    expect(keyLowerBoundMs(groupCounts(mixed.slice(0, 301)))).toBe(3_600 * S);
  });

  it('a quick run never waits for the hour window: the key sends at most 300, the minute window binds', () => {
    const mixed = [...reqs(130, 'GET', '/branding'), ...reqs(130, 'PATCH', '/branding'), ...reqs(130, 'GET', '/capabilities/assets')];
    expect(keyLowerBoundMs(groupCounts(mixed), 1, { waitHour: false })).toBe(240 * S);
    expect(keyLowerBoundMs(groupCounts(mixed), 1, { waitHour: true })).toBe(3_660 * S);
    expect(spreadLowerBoundMs(groupCounts(mixed), 1, 1, { waitHour: false })).toBe(240 * S);
  });

  it('a declared window scale shrinks the bound by the same factor', () => {
    const mixed = [...reqs(195, 'GET', '/branding'), ...reqs(195, 'PATCH', '/branding')];
    expect(keyLowerBoundMs(groupCounts(mixed), 0.1)).toBeCloseTo(366 * S, 0);
  });

  it('spreading over keys divides the load of the busiest key', () => {
    const total = groupCounts(reqs(390, 'GET', '/branding'));
    expect(spreadLowerBoundMs(total, 1)).toBe(3_660 * S);
    expect(spreadLowerBoundMs(total, 2)).toBe(180 * S);
  });

  it('a finished run: the busiest key and the longest documented wait inside one check', () => {
    const stats = {
      requests: [
        ...reqs(11).map((r) => ({ ...r, service: 'gate' as const, label: 'a', credential: 'secret', check: 'x' })),
        ...reqs(5).map((r) => ({ ...r, service: 'gate' as const, label: 'b', credential: 'secret', check: 'y' })),
        ...reqs(50).map((r) => ({ ...r, service: 'gate' as const, label: 'raw', credential: 'none', check: 'y' })),
      ],
      sleeps: [
        { check: 'x', ms: 16_000, kind: 'target' as const },
        { check: 'x', ms: 2_000, kind: 'target' as const },
        { check: 'y', ms: 99_000, kind: 'harness' as const },
      ],
    };
    const lb = spentLowerBound(stats);
    expect(lb.rateMs).toBe(10 * S);
    expect(lb.busiestKey).toBe('a (secret)');
    expect(lb.waitMs).toBe(18 * S);
    expect(lb.boundMs).toBe(18 * S);
  });

  it('a finished run: the checks that held one partner alone add up their waits, and those sharing it add their longest', () => {
    const t0 = 1_000_000;
    const stats = {
      requests: [],
      sleeps: [
        { check: 'dead letter', at: t0 + 1_000, ms: 40_000, kind: 'target' as const },
        { check: 'dead letter', at: t0 + 41_000, ms: 8_000, kind: 'target' as const },
        { check: 'redelivery', at: t0 + 50_000, ms: 20_000, kind: 'target' as const },
        // Before redelivery got its partner: not inside the hold.
        { check: 'redelivery', at: t0, ms: 5_000, kind: 'target' as const },
        { check: 'redelivery', at: t0 + 71_000, ms: 90_000, kind: 'harness' as const },
        { check: 'quote ttl', at: t0 + 100_000, ms: 30_000, kind: 'target' as const },
        { check: 'read', at: t0 + 100_000, ms: 3_000, kind: 'target' as const },
        { check: 'on another partner', at: t0, ms: 60_000, kind: 'target' as const },
      ],
      holds: [
        { check: 'dead letter', partner: 'pools:p1', alone: true, since: t0 },
        { check: 'redelivery', partner: 'pools:p1', alone: true, since: t0 + 49_000 },
        { check: 'quote ttl', partner: 'pools:p1', alone: false, since: t0 + 99_000 },
        { check: 'read', partner: 'pools:p1', alone: false, since: t0 + 99_000 },
        { check: 'on another partner', partner: 'pools:p2', alone: false, since: t0 },
      ],
    };
    const lb = spentLowerBound(stats);
    // p1: 48 s + 20 s held alone, then the longest shared hold (30 s); p2, only shared, stands as one check's 60 s.
    expect(lb.waitMs).toBe(98_000);
    expect(lb.heldPartner).toBe('pools:p1');
    expect(lb.boundMs).toBe(98_000);
    // Without the holds, the longest single check.
    expect(spentLowerBound({ ...stats, holds: [] }).waitMs).toBe(60_000);
    // Waits a check runs at once (two webhooks awaited together) count once.
    const together = { requests: [], sleeps: [0, 2_000].map((d) => ({ check: 'two hooks', at: t0 + d, ms: 10_000, kind: 'target' as const })) };
    expect(spentLowerBound(together).waitMs).toBe(12_000);
  });

  it('formats durations as a person reads them', () => {
    expect(formatDuration(6_000_000)).toBe('1 h 40 min');
    expect(formatDuration(192_000)).toBe('3 min 12 s');
    expect(formatDuration(45_000)).toBe('45 s');
  });
});

describe('the plan of a one-key profile (no traffic)', () => {
  it('counts each rate-limit client against its own 300-per-hour window and says whether the run fits it', async () => {
    const { planRun, formatPlan } = await import('../src/plan/plan.js');
    const { oneKeyProfile } = await import('../src/plan/oneKey.js');
    const { loadProfile } = await import('../src/profile/load.js');
    const profile = oneKeyProfile(loadProfile('fixtures/profiles/embedded.json'), { rateWindowScale: 1 });
    const quick = await planRun(profile, { kinds: ['conformance', 'chaos'], depth: 'quick' });
    expect(quick.keys.gateSecret).toBe(1);
    expect(quick.keys.gatePublishable).toBe(1);
    // The secret and the publishable key are rate-limit clients of their own: each its own share.
    expect(quick.requests.gate.perKey + quick.requests.gate.perPublishableKey).toBe(quick.requests.gate.total);
    expect(quick.keyHour.busiestKey).toBe(Math.max(quick.requests.gate.perKey, quick.requests.gate.perPublishableKey));
    expect(quick.keyHour.fits).toBe(quick.keyHour.busiestKey <= 300);
    expect(quick.keyHour.overPerKey).toBe(Math.max(0, quick.keyHour.busiestKey - 300));
    expect(quick.lowerBoundSeconds).toBeLessThan(3600);
    const text = formatPlan(quick).join('\n');
    if (quick.keyHour.fits) {
      expect(quick.hourWindow).toBeUndefined();
      expect(text).toMatch(new RegExp(`sends ~${quick.keyHour.busiestKey} of its 300 requests per hour: the run fits one hour window`));
    } else expect(text).toMatch(/does NOT fit its 300-per-hour window/);
  });

  it('a run beyond the hour window: quick skips what the window cannot hold and says so; full waits for it, ≥ 1 h', async () => {
    const { planRun, formatPlan } = await import('../src/plan/plan.js');
    const { oneKeyProfile } = await import('../src/plan/oneKey.js');
    const { loadProfile } = await import('../src/profile/load.js');
    const { readCalibration } = await import('../src/runner/calibration.js');
    const profile = oneKeyProfile(loadProfile('fixtures/profiles/embedded.json'), { rateWindowScale: 1 });
    // Every calibrated check costing four times what it does: far beyond one key's hour.
    const cal = readCalibration();
    const times4 = (g: Record<string, number | undefined>) => Object.fromEntries(Object.entries(g).map(([k, n]) => [k, 4 * (n ?? 0)]));
    const heavy = {
      ...cal,
      checks: Object.fromEntries(
        Object.entries(cal.checks).map(([k, c]) => [k, { ...c, gate: { secret: times4(c.gate.secret), publishable: times4(c.gate.publishable) } }]),
      ),
    };
    const quick = await planRun(profile, { kinds: ['conformance', 'chaos'], depth: 'quick' }, heavy);
    const full = await planRun(profile, { kinds: ['conformance', 'chaos'], depth: 'full' }, heavy);
    expect(quick.keyHour.fits).toBe(false);
    expect(quick.hourWindow?.overPerKey).toBe(quick.keyHour.overPerKey);
    expect(quick.hourWindow!.overPerKey).toBe(quick.requests.gate.perKey - 300);
    expect(quick.lowerBoundSeconds).toBeLessThan(3600);
    expect(full.hourWindow).toBeUndefined();
    expect(full.keyHour.fits).toBe(false);
    expect(full.lowerBoundSeconds).toBeGreaterThanOrEqual(3600);
    expect(quick.hourWindow?.fullDepthSeconds).toBeGreaterThanOrEqual(3600);
    expect(formatPlan(quick).join('\n')).toMatch(
      /does NOT fit its 300-per-hour window \(~\d+ beyond it\); at --depth quick the checks needing them skip \(INCOMPLETE\); --depth full waits for the window: ≥ \d+ h/,
    );
    expect(formatPlan(full).join('\n')).toMatch(/does NOT fit its 300-per-hour window \(~\d+ beyond it\); --depth full waits for the window/);
  });
});

describe('the plan of checks that hold a partner alone', () => {
  it('adds up their waits on the partners of their service: one pools partner runs them in turn, more share them out', async () => {
    const { planRun } = await import('../src/plan/plan.js');
    const { oneKeyProfile } = await import('../src/plan/oneKey.js');
    const { loadProfile } = await import('../src/profile/load.js');
    const { readCalibration } = await import('../src/runner/calibration.js');
    const cal = readCalibration();
    const held = Object.keys(cal.checks).filter((k) => k.startsWith('chaos:chaos/pools/settlementWebhooks.ts::'));
    expect(held).toHaveLength(2);
    const sharing = Object.keys(cal.checks).filter((k) => k.startsWith('chaos:chaos/pools/quoteTtl.ts::'));
    expect(sharing).toHaveLength(1);
    // Only these wait: 10 s and 7 s each holding a webhook-capable pools partner alone, 5 s on one shared with other checks.
    const waits: Record<string, number> = { [held[0]!]: 10_000, [held[1]!]: 7_000, [sharing[0]!]: 5_000 };
    const quiet = { ...cal, checks: Object.fromEntries(Object.entries(cal.checks).map(([k, c]) => [k, { ...c, targetWaitMs: waits[k] ?? 0 }])) };
    // Retry schedules compressed to nothing: the checks' planned waits (their schedules at the declared scale) vanish.
    const loaded = loadProfile('fixtures/profiles/embedded.json');
    const base = { ...loaded, timing: { ...loaded.timing, retryScale: 1e-9 } };
    const one = await planRun(oneKeyProfile(base, { rateWindowScale: 1 }), { kinds: ['chaos'], depth: 'quick' }, quiet);
    expect(one.bound.waitMs).toBe(22_000);
    const { viewFor } = await import('../src/runner/partition.js');
    // The partners chaos may use (those reserved for other kinds are not its).
    const pools = viewFor(base, 'chaos').pools!.partners.length;
    expect(pools).toBeGreaterThan(1);
    const many = await planRun(base, { kinds: ['chaos'], depth: 'quick' }, quiet);
    expect(many.bound.waitMs).toBe(Math.max(10_000, 22_000 / pools));
  });
});

describe('the nightly plan (--depth full)', () => {
  it('counts the real-time retry schedule where the target runs it (2 h 36 min, 5 h 7 min with the dead letter), skips it with the reason where the schedule is compressed', async () => {
    const { planRun } = await import('../src/plan/plan.js');
    const { loadProfile } = await import('../src/profile/load.js');
    const base = loadProfile('fixtures/profiles/embedded.json');
    const realTime = { ...base, timing: { ...base.timing, retryScale: 1 } };
    const full = await planRun(realTime, { kinds: ['conformance', 'chaos', 'load'], depth: 'full' });
    // The longest: the dead letter's four gaps to the fifth attempt, the last gap again (and its declared tolerance,
    // a quarter of it, and a second more) listening for a sixth, and the first for the replay.
    expect(full.bound.waitMs).toBe((1 + 5 + 30 + 120 + 120 * 1.25 + 1) * 60_000 + 1_000);
    expect(full.lowerBoundSeconds).toBeGreaterThanOrEqual(full.bound.waitMs / 1000);
    expect(full.skipped.map((s) => s.check)).not.toContain('four 500 answers then 200 in real time: the gaps are 1m, 5m, 30m, 2h');
    const compressed = await planRun(base, { kinds: ['conformance', 'chaos', 'load'], depth: 'full' });
    expect(compressed.skipped).toContainEqual(
      expect.objectContaining({
        check: 'four 500 answers then 200 in real time: the gaps are 1m, 5m, 30m, 2h',
        reason: expect.stringMatching(/compressed schedule/),
      }),
    );
    // The hour window of the rate-limit scenario: two rollovers of the hour at full depth.
    expect(compressed.bound.loadMs).toBe(2 * 3_600_000 * base.timing.rateWindowScale);
  });
});

describe('the round trip in the plan', () => {
  it('multiplies the round trip through the requests each check sends one after another', async () => {
    const { planRun } = await import('../src/plan/plan.js');
    const { loadProfile } = await import('../src/profile/load.js');
    const { readCalibration } = await import('../src/runner/calibration.js');
    const cal = readCalibration();
    const base = loadProfile('fixtures/profiles/embedded.json');
    const near = await planRun(base, { kinds: ['conformance'], depth: 'quick' }, cal);
    const far = await planRun(base, { kinds: ['conformance'], depth: 'quick', roundTrip: { ms: 500, source: 'option' } }, cal);
    // The longest chain grows by at least its requests in sequence times the round trip.
    const longest = Math.max(
      ...Object.entries(cal.checks)
        .filter(([k]) => k.startsWith('conformance:'))
        .map(([, c]) => c.sequential ?? 0),
    );
    expect(longest).toBeGreaterThan(5);
    expect(far.byKind.conformance!).toBeGreaterThanOrEqual(longest * 500);
    expect(far.lowerBoundSeconds).toBeGreaterThan(near.lowerBoundSeconds);
    expect(far.roundTrip).toEqual({ ms: 500, source: 'option' });
  });

  it("takes what rampart doctor last measured for the profile's base URLs, else says it is not known", async () => {
    const { planRoundTrip, recordRoundTrips } = await import('../src/plan/roundTrip.js');
    const { loadProfile } = await import('../src/profile/load.js');
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const env = { ...process.env, XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'rampart-rtt-')) };
    const profile = loadProfile('fixtures/profiles/embedded.json');
    expect(planRoundTrip(profile, undefined, env)).toEqual({ ms: 0, source: 'none' });
    recordRoundTrips({ [profile.gate.baseUrls.sandbox]: { medianMs: 120, p95Ms: 150 }, [profile.pools!.baseUrls.sandbox]: { medianMs: 180, p95Ms: 260 } }, env);
    expect(planRoundTrip(profile, undefined, env)).toMatchObject({ ms: 180, source: 'doctor' });
    expect(planRoundTrip(profile, 40, env)).toEqual({ ms: 40, source: 'option' });
  });
});
