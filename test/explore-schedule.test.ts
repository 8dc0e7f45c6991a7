// What steers rampart explore's draws, without a target: a command's variant leaves out the object it picks; the run's
// variant coverage scores a sequence by what it would walk anew (operations, each parameter alone, pairs of
// consecutive operations), per step drawn; the family schedule is deterministic for a seed.
import { describe, expect, it } from 'vitest';
import { FAMILIES } from '../src/explore/commands/index.js';
import { ReplayRail } from '../src/explore/commands/gate/railRecords.js';
import { ExpireQuote } from '../src/explore/commands/gate/rails.js';
import { Settle } from '../src/explore/commands/pools/trades.js';
import { FamilySchedule, VariantCoverage } from '../src/explore/schedule.js';

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
    const open = 'Transact(then=none, fresh=true)';
    const released = [open, v(new Settle(0, 'released', 'none'))];
    const fresh = c.score(released);
    expect(fresh.unmade).toBe(4 / 3); // each step's operation and the parameters that move something, for two steps and the opening's cost
    c.record(released);
    const once = c.score(released);
    c.record(released);
    expect(once.unmade).toBe(0);
    expect(once.perStep).toBeLessThan(fresh.perStep);
    expect(c.score(released).perStep).toBeLessThan(once.perStep);
    expect(above(c, [open, v(new Settle(0, 'failed', 'none'))], released)).toBe(true);
    expect(above(c, released, [open, v(new Settle(0, 'failed', 'none'))])).toBe(false);
  });

  it('counts a parameter value never asked for as new, whatever it is combined with', () => {
    const c = new VariantCoverage();
    c.record([v(new Settle(0, 'settled', 'none'))]);
    c.record([v(new Settle(0, 'settled', 'get'))]);
    // Both whole variants are new; only the first asks for an outcome the run has not.
    const open = 'Transact(then=none, fresh=true)';
    c.record([open]);
    expect(above(c, [open, v(new Settle(0, 'released', 'none'))], [open, v(new Settle(0, 'settled', 'get'))])).toBe(true);
    // A choice never made outranks any number of new combinations of choices made before.
    const made = [v(new Settle(0, 'settled', 'none')), v(new Settle(0, 'settled', 'get'))];
    expect(above(c, [open, v(new Settle(0, 'released', 'get'))], [open, ...made, ...made.reverse(), ...made])).toBe(true);
  });

  it('counts an order of operations not walked yet: a replay after an expiry is new after replays after a lock', () => {
    const c = new VariantCoverage();
    const replay = v(new ReplayRail(0));
    const expire = v(new ExpireQuote(0, 'around'));
    c.record([expire, 'LockQuote(side=off_ramp, then=read)', replay]);
    expect(above(c, [expire, replay], ['LockQuote(side=off_ramp, then=read)', replay])).toBe(true);
  });

  it('counts what a step reads back as no choice of its own: the outcome asked of the sandbox is', () => {
    const c = new VariantCoverage();
    const open = 'Transact(then=none, fresh=true)';
    c.record([open, v(new Settle(0, 'settled', 'none'))]);
    // A read-back never made (the trade read after) is walked anew, not a choice: an outcome never asked outranks it.
    expect(c.score([open, v(new Settle(0, 'settled', 'get'))]).unmade).toBe(0);
    expect(c.score([open, v(new Settle(0, 'settled', 'get'))]).perStep).toBeGreaterThan(0);
    expect(above(c, [open, v(new Settle(0, 'released', 'none'))], [open, v(new Settle(0, 'settled', 'get'))])).toBe(true);
  });

  it('does not favour a sequence for its length alone', () => {
    const c = new VariantCoverage();
    const walked = Array.from({ length: 6 }, (_, i) => `Read(n=${i})`);
    c.record(walked);
    // One step new against the same step plus five walked ones: the short one walks more for what it costs.
    expect(above(c, [walked[0]!, 'Fresh(x=1)'], [walked[0]!, 'Fresh(x=1)', ...walked.slice(1)])).toBe(true);
  });

  it('counts the choices of an operation at its first draw only (a later draw often does not apply)', () => {
    const c = new VariantCoverage();
    const open = 'Transact(then=none, fresh=true)';
    c.record([open, v(new Settle(0, 'settled', 'none'))]);
    // The trade takes the first outcome asked for; a second Settle of the same sequence finds it terminal.
    expect(above(c, [open, v(new Settle(0, 'released', 'none'))], [open, v(new Settle(0, 'settled', 'none')), v(new Settle(0, 'released', 'none'))])).toBe(
      true,
    );
  });

  it('counts an operation drawn after the opening as a choice, though the opening was the same operation', () => {
    const c = new VariantCoverage();
    const open = 'Transact(then=none, fresh=true)';
    c.record([open, v(new Settle(0, 'settled', 'none'))]);
    expect(c.score([open, 'Transact(then=none, fresh=false)']).unmade).toBeGreaterThan(0);
    expect(c.score([open, 'Transact(then=none, fresh=true)']).unmade).toBe(0);
  });

  it('puts a sequence of its opening step alone last', () => {
    const c = new VariantCoverage();
    expect(above(c, ['Open(a=1)', 'Read(b=1)'], ['Open(a=2)'])).toBe(true);
    c.record(['Open(a=1)', 'Read(b=1)']);
    expect(above(c, ['Open(a=1)', 'Read(b=1)'], ['Open(a=2)'])).toBe(true);
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

  it('gives its turns in order to the family that has spent least of the budget', () => {
    const s = new FamilySchedule(FAMILIES, 7);
    for (let k = 0; k < FAMILIES.length; k++) s.next();
    // Every family once; the pools trades' sequence cost ten times the others'.
    for (const f of FAMILIES) s.record(f, [`${f.name} made`], f.name === 'pools trades' ? 100 : 10);
    // The turns between (by energy) cost nothing here, so only the in-order turns move what was spent.
    const turns = Array.from({ length: 2 * (FAMILIES.length - 1) }, (_, i) => {
      const f = s.next();
      if (i % 2 === 0) s.record(f, [], 10);
      return f.name;
    });
    const inOrder = turns.filter((_, i) => i % 2 === 0);
    expect(inOrder).not.toContain('pools trades');
    expect(new Set(inOrder).size).toBe(inOrder.length);
  });

  it('gives its energy turns to what a family found new for the requests it spent', () => {
    const [a, b] = [FAMILIES.find((f) => f.name === 'sessions')!, FAMILIES.find((f) => f.name === 'customers')!];
    const s = new FamilySchedule([a, b], 11);
    s.record(
      a,
      Array.from({ length: 10 }, (_, i) => `a${i}`),
      100,
    );
    s.record(
      b,
      Array.from({ length: 10 }, (_, i) => `b${i}`),
      10,
    );
    const picks = { [a.name]: 0, [b.name]: 0 };
    for (let k = 0; k < 400; k++) picks[s.next().name]!++;
    // In-order turns are even between the two; the energy turns go mostly to the family that found as much for less.
    expect(picks[b.name]!).toBeGreaterThan(picks[a.name]! + 100);
  });
});
