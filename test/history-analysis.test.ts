// What a row of statuses across runs says (src/history/analysis.ts): a rule is intermittent when its judged status
// flipped twice or more among runs of one rampart version; a failure is new (it passed the last time it was judged,
// or was never judged), intermittent (its rule flips) or still failing (since the run its streak began). Statuses
// that judge nothing (skipped, unverified, not run, absent) neither flip a rule nor break a streak.
import { describe, expect, it } from 'vitest';
import { classifyAt, flipsAlong, rowHistories } from '../src/history/analysis.js';

const P = 'passed',
  F = 'failed',
  S = 'skipped';
const row = (...statuses: (string | null)[]) => ({ key: 'R', statuses });
const same = (n: number) => Array.from({ length: n }, () => '0.1.0');

describe('a rule across runs', () => {
  it('clean, fault, clean, fault, clean: intermittent; the first failure new, the second intermittent', () => {
    const r = row(P, F, P, F, P);
    const [h] = rowHistories([r], same(5));
    expect(h).toMatchObject({ flips: 4, intermittent: true, failedAt: [1, 3], passedAt: [0, 2, 4] });
    expect(classifyAt(r, 1, same(5))).toEqual({ class: 'new', lastPassedAt: 0, judged: 2, failed: 1 });
    expect(classifyAt(r, 3, same(5))).toEqual({ class: 'intermittent', lastPassedAt: 2, judged: 4, failed: 2 });
    expect(classifyAt(r, 4, same(5))).toBeUndefined();
  });

  it('a regression tonight after passing nights is new, not intermittent; a rule that passed every run is neither', () => {
    const r = row(P, P, P, P, F);
    expect(rowHistories([r, row(P, P, P, P, P)], same(5)).map((h) => [h.flips, h.intermittent])).toEqual([
      [1, false],
      [0, false],
    ]);
    expect(classifyAt(r, 4, same(5))).toMatchObject({ class: 'new', lastPassedAt: 3 });
  });

  it('failing night after night is still failing since its streak began; failing on the first run ever is new', () => {
    const r = row(P, F, F, F);
    expect(classifyAt(r, 2, same(4))).toMatchObject({ class: 'still failing', failingSince: 1, lastPassedAt: 0 });
    expect(classifyAt(r, 3, same(4))).toMatchObject({ class: 'still failing', failingSince: 1 });
    expect(classifyAt(row(F), 0, same(1))).toEqual({ class: 'new', judged: 1, failed: 1 });
  });

  it('runs that did not judge the rule are looked through, never counted as a flip', () => {
    expect(classifyAt(row(P, S, null, F), 3, same(4))).toMatchObject({ class: 'new', lastPassedAt: 0 });
    expect(classifyAt(row(F, S, F), 2, same(3))).toMatchObject({ class: 'still failing', failingSince: 0 });
    expect(rowHistories([row(P, S, P, null, P)], same(5))[0]).toMatchObject({ flips: 0, intermittent: false });
    expect(flipsAlong(row(P, S, F, null, P))).toEqual([
      { from: P, to: F, at: 2 },
      { from: F, to: P, at: 4 },
    ]);
  });

  it('flips are counted among runs of one rampart version: an upgrade starts the count again', () => {
    const versions = ['0.1.0', '0.1.0', '0.2.0', '0.2.0'];
    const r = row(P, F, P, F);
    expect(rowHistories([r], versions)[0]).toMatchObject({ flips: 1, intermittent: false });
    expect(classifyAt(r, 3, versions)).toMatchObject({ class: 'new', lastPassedAt: 2 });
    expect(classifyAt(r, 3, same(4))).toMatchObject({ class: 'intermittent' });
  });
});
