// What steers rampart explore's draws, without a target: a command's variant leaves out the object it picks; the run's
// variant coverage scores a sequence by what it would walk anew (operations, each parameter alone, pairs of
// consecutive operations), per step drawn; the family schedule is deterministic for a seed.
import { describe, expect, it } from 'vitest';
import { FAMILIES } from '../src/explore/commands/index.js';
import { ExpireQuote, ReplayRail } from '../src/explore/commands/gate/rails.js';
import { Settle } from '../src/explore/commands/pools/trades.js';
import { FamilySchedule, VariantCoverage, turnsOf } from '../src/explore/schedule.js';

const v = (c: { variantKey(): string }) => c.variantKey();
/** How a sequence of these variants scores now: above `than` or not. */
const above = (c: VariantCoverage, a: string[], than: string[]) => VariantCoverage.better(c.score(a), c.score(than));

describe('variants', () => {
  it('name the operation and its parameters, not the object it picks', () => {
    expect(v(new Settle(0, 'released', 'none'))).toBe(v(new Settle(4, 'released', 'none')));
    expect(v(new Settle(0, 'released', 'none'))).not.toBe(v(new Settle(0, 'settled', 'none')));
    expect(v(new Settle(0, 'released', 'none'))).toMatch(/^Settle\(.*\)$/);
    expect(v(new Settle(0, 'released', 'none'))).toContain('outcome=released');
    expect(v(new Settle(0, 'released', 'none'))).toContain('then=none');
    expect(v(new ReplayRail(0))).toBe(v(new ReplayRail(2)));
  });
});

describe('variant coverage', () => {
  it('scores what the run has not walked above what it has, and lowers a variant each time it runs', () => {
    const c = new VariantCoverage();
    const released = [v(new Settle(0, 'released', 'none'))];
    const fresh = c.score(released);
    expect(fresh.unmade).toBe(3 / 2); // the operation, its outcome, what it reads back: for one step
    c.record(released);
    const once = c.score(released);
    c.record(released);
    expect(once.unmade).toBe(0);
    expect(once.perStep).toBeLessThan(fresh.perStep);
    expect(c.score(released).perStep).toBeLessThan(once.perStep);
    expect(above(c, [v(new Settle(0, 'failed', 'none'))], released)).toBe(true);
    expect(above(c, released, [v(new Settle(0, 'failed', 'none'))])).toBe(false);
  });

  it('counts a parameter value never asked for as new, whatever it is combined with', () => {
    const c = new VariantCoverage();
    c.record([v(new Settle(0, 'settled', 'none'))]);
    c.record([v(new Settle(0, 'settled', 'get'))]);
    // Both whole variants are new; only the first asks for an outcome the run has not.
    expect(above(c, [v(new Settle(0, 'released', 'none'))], [v(new Settle(0, 'settled', 'get'))])).toBe(true);
    // A choice never made outranks any number of new combinations of choices made before.
    const made = [v(new Settle(0, 'settled', 'none')), v(new Settle(0, 'settled', 'get'))];
    expect(above(c, [v(new Settle(0, 'released', 'get'))], [...made, ...made.reverse(), ...made])).toBe(true);
  });

  it('counts an order of operations not walked yet: a replay after an expiry is new after replays after a lock', () => {
    const c = new VariantCoverage();
    const replay = v(new ReplayRail(0));
    const expire = v(new ExpireQuote(0, 'around'));
    c.record([expire, 'LockQuote(side=off_ramp, then=read)', replay]);
    expect(above(c, [expire, replay], ['LockQuote(side=off_ramp, then=read)', replay])).toBe(true);
  });

  it('does not favour a sequence for its length alone', () => {
    const c = new VariantCoverage();
    const walked = Array.from({ length: 6 }, (_, i) => `Read(n=${i})`);
    c.record(walked);
    // One step new against the same step plus five walked ones: the short one walks more for what it costs.
    expect(above(c, ['Fresh(x=1)'], ['Fresh(x=1)', ...walked.slice(1)])).toBe(true);
  });
});

describe('the family schedule', () => {
  it('goes round every family first and is the same for the same seed', () => {
    const order = (seed: number) => {
      const s = new FamilySchedule(FAMILIES, seed);
      return Array.from({ length: 24 }, () => s.next().name);
    };
    expect(new Set(order(7).slice(0, FAMILIES.length))).toEqual(new Set(FAMILIES.map((f) => f.name)));
    expect(order(7)).toEqual(order(7));
  });

  it('gives a family of many operations more turns than one of few', () => {
    const s = new FamilySchedule(FAMILIES, 7);
    const turns = new Map<string, number>();
    for (let k = 0; k < 120; k++) {
      const name = s.next().name;
      turns.set(name, (turns.get(name) ?? 0) + 1);
    }
    expect(turnsOf(FAMILIES.find((f) => f.name === 'pools trades')!)).toBeGreaterThan(turnsOf(FAMILIES.find((f) => f.name === 'branding')!));
    expect(turns.get('pools trades')!).toBeGreaterThan(turns.get('branding')!);
  });
});
