// The oracle follows the target where the target may choose: a value the specs leave open is related by what it
// refers to or by staying put on one side (the same number, the same instant, a pair each side spells its own way),
// never by equality with the reference; a poll may take any documented path; the oracle's profile is the target's
// world (keys the reference would refuse swapped, the target's declared lifetimes). And against the dialect world —
// every open point of the inventory its second choice — explore finds no divergence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oracleKey, oracleProfileOf, startOracle, type RunningOracle } from '../src/cli/oracle.js';
import { Pacer } from '../src/client/pacer.js';
import { anotherAmount } from '../src/explore/commands/gate/sessions.js';
import { walkList } from '../src/explore/commands/lists.js';
import { Budget, Real } from '../src/explore/real.js';
import type { Exchange } from '../src/client/types.js';
import { pollStates } from '../src/explore/commands/pools/polls.js';
import { explore, explorationTag } from '../src/explore/explore.js';
import { capabilitiesOf, contextOf, explorePartners, sideOf } from '../src/explore/sides.js';
import { GATE_LIMITS } from '../src/model/limits.js';
import { relate, sameInstant, sameValue, stable } from '../src/model/relations.js';
import { STORED_QUOTE_RELATIONS, TRADE_RELATIONS } from '../src/model/schemas/pools/resources.js';
import { loadProfile } from '../src/profile/load.js';
import type { RunningReference } from '../src/reference/server.js';
import { viewFor } from '../src/runner/partition.js';
import { startDialect } from './support/embedded.js';

describe('values the specs leave open', () => {
  it('a timestamp is one instant however it is written', () => {
    expect(sameInstant('2026-05-25T10:00:15Z', '2026-05-25T10:00:15.000Z')).toBe(true);
    expect(sameInstant('2026-05-25T10:00:15+00:00', '2026-05-25T10:00:15.000Z')).toBe(true);
    expect(sameInstant('2026-05-25T12:00:15+02:00', '2026-05-25T10:00:15Z')).toBe(true);
    expect(sameInstant('2026-05-25T10:00:15Z', '2026-05-25T10:00:16.000Z')).toBe(false);
    expect(sameInstant('2026-05-25T10:00:15.120Z', '2026-05-25T10:00:15.121Z')).toBe(false);
    expect(sameValue('instant', 'not a time', 'not a time')).toBe(true);
    expect(sameValue('instant', 'not a time', '2026-05-25T10:00:15Z')).toBe(false);
  });

  it('a decimal is one number however it is written', () => {
    expect(sameValue('decimal', '1.085', '1.0850')).toBe(true);
    expect(sameValue('decimal', '10', '10.00')).toBe(true);
    expect(sameValue('decimal', '1.085', '1.086')).toBe(false);
    expect(sameValue('same', '1.085', '1.0850')).toBe(false);
  });

  it("a pool's pair stays put on each side, however each spells it", () => {
    for (const rules of [TRADE_RELATIONS, STORED_QUOTE_RELATIONS]) {
      expect(rules.fields.pair).toEqual(stable(rules.fields.pair!.requirement));
      const seen = new Map<string, unknown>();
      const ctx = {
        refOf: () => undefined,
        stableOf: (side: string, key: string) => seen.get(`${side}:${key}`),
        remember: (side: string, key: string, v: unknown) => void seen.set(`${side}:${key}`, v),
      };
      const pairOnly = { ...rules, fields: { pair: rules.fields.pair! } };
      expect(relate(pairOnly, { pair: 'EUR/USDT' }, { pair: 'EUR-USDT' }, ctx)).toEqual([]);
      expect(relate(pairOnly, { pair: 'EUR/USDT' }, { pair: 'EUR-USDT' }, ctx)).toEqual([]);
      expect(relate(pairOnly, { pair: 'EURUSDT' }, { pair: 'EUR-USDT' }, ctx)).toHaveLength(1);
    }
  });

  it('a conflicting body under a session key is another valid amount, in its own decimals', () => {
    expect(anotherAmount('26.5')).toBe('27.5');
    expect(anotherAmount('10.00')).toBe('11.00');
    expect(anotherAmount('7')).toBe('8');
    expect(anotherAmount(undefined)).toBe('11.00');
  });

  it('a poll may keep a trade reserved a poll longer, end it as the sandbox chose (a return settled first or at once), or, unchosen, in any end', () => {
    expect(pollStates({ state: 'reserved' })).toEqual(['reserved', 'settled', 'failed', 'released']);
    expect(pollStates({ state: 'reserved', chosen: 'released' })).toEqual(['reserved', 'released']);
    expect(pollStates({ state: 'reserved', chosen: 'returned' })).toEqual(['reserved', 'settled', 'returned']);
    expect(pollStates({ state: 'settled' })).toEqual(['settled', 'returned']);
    expect(pollStates({ state: 'released' })).toEqual(['released']);
    expect(pollStates({ state: 'failed', chosen: 'failed' })).toEqual(['failed']);
  });
});

describe('a list whose order is open (oldest first puts what a sequence makes last)', () => {
  /** A list of `n` ids oldest first, five a page, cursor starting_after, as a lived-in target of that world answers it. */
  const oldestFirst =
    (n: number) =>
    (after?: string): Exchange => {
      const ids = Array.from({ length: n }, (_, i) => `s${i + 1}`);
      const from = after ? ids.indexOf(after) + 1 : 0;
      const data = ids.slice(from, from + 5).map((id) => ({ id }));
      return { status: 200, json: { object: 'list', data, has_more: from + 5 < n } } as unknown as Exchange;
    };
  const walk = (r: Real, n: number, wanted: string[]) =>
    walkList(r, {
      page: async (_side, after) => oldestFirst(n)(after),
      items: (j) => (j as { data: Record<string, unknown>[] }).data,
      more: (j) => (j as { has_more: boolean }).has_more,
      cursor: (item) => String(item.id),
      wanted: () => new Set(wanted),
      requirement: 'GATE-SESS-LIST-PAGINATION',
      frontier: { list: 'sessions', ours: (_side, id) => wanted.includes(id) },
    });

  it('a later walk goes on from where the exploration walked deepest, and then never says an object is absent', async () => {
    const context = { ...contextOf(loadProfile('fixtures/profiles/embedded.json'), 'tag') };
    const real = () => {
      const r = new Real({ target: { triggers: { gate: {}, pools: {} } }, oracle: { triggers: { gate: {}, pools: {} } } }, new Budget(1_000), context);
      r.begin('list sessions', 'ListSessions()');
      return r;
    };
    // 40 older sessions first: six pages reach the 30th, and the sequence's one (the 42nd) is not among them.
    const first = await walk(real(), 42, ['s42']);
    expect(first.target.has('s42')).toBe(false);
    expect(context.frontiers.get('sessions')?.target).toBe('s30');
    // The next walk goes on past the 30th: it reaches the end and finds it.
    const next = await walk(real(), 42, ['s42']);
    expect(next.target.has('s42')).toBe(true);
    expect(next.complete.target).toBe(false);
    expect(context.frontiers.get('sessions')?.target).toBe('s41');
  });

  it('a walk goes on past the last object an earlier sequence made: the list holds this sequence’s after it', async () => {
    const context = { ...contextOf(loadProfile('fixtures/profiles/embedded.json'), 'tag') };
    context.made.set('sessions', [
      { target: 's90', oracle: 's90' },
      { target: 's98', oracle: 's98' },
    ]);
    const r = new Real({ target: { triggers: { gate: {}, pools: {} } }, oracle: { triggers: { gate: {}, pools: {} } } }, new Budget(1_000), context);
    r.begin('list sessions', 'ListSessions()');
    const found = await walk(r, 100, ['s99', 's100']);
    expect([found.target.has('s99'), found.target.has('s100'), found.complete.target]).toEqual([true, true, false]);
    // Two pages: the first, then the one after s98.
    expect(r.steps[0]!.exchanges.target.length).toBe(2);
  });
});

describe("the oracle's profile is the target's world", () => {
  it('takes keys the profile allows and the reference would refuse, swapped for ones it takes, the same every start', () => {
    const own = `sk_test_${'ab-cd_ef.'.repeat(4).slice(0, 32)}`;
    expect(GATE_LIMITS.keyPattern.test(own)).toBe(false);
    const swapped = oracleKey(own);
    expect(swapped).toMatch(GATE_LIMITS.keyPattern);
    expect(swapped.startsWith('sk_test_')).toBe(true);
    expect(oracleKey(own)).toBe(swapped);
    const fine = 'sk_test_cmOaMNyHgG1Pu58MHvNaNRd2GHRG5v8v';
    expect(oracleKey(fine)).toBe(fine);
  });

  it("carries the target's partners with keys the reference takes, a publishable key of its own, and the target's declared lifetimes", () => {
    const base = loadProfile('fixtures/profiles/embedded.json');
    const odd = `sk_test_${'x-y_'.repeat(8)}`;
    const target = {
      ...base,
      gate: {
        ...base.gate,
        partners: base.gate.partners.map((p, i) => (i === 0 ? { ...p, secretKey: odd, publishableKey: undefined, allowedOrigins: undefined } : p)),
      },
      timing: { ...base.timing, sessionLifetimeSeconds: 60, signedQuoteLifetimeSeconds: 30 },
    };
    const oracle = oracleProfileOf(target);
    const first = oracle.gate.partners[0]!;
    expect(first.name).toBe(base.gate.partners[0]!.name);
    expect(first.secretKey).toMatch(GATE_LIMITS.keyPattern);
    expect(first.publishableKey).toMatch(GATE_LIMITS.keyPattern);
    expect(first.allowedOrigins?.length).toBeGreaterThan(0);
    expect(oracle.reference?.sessionLifetimeSeconds).toBe(60);
    expect(oracle.reference?.signedQuoteLifetimeSeconds).toBe(30);
    expect(oracle.reference?.dialect).toBeUndefined();
  });
});

describe('explore in the dialect world', () => {
  let world: RunningReference;
  let oracle: RunningOracle;
  beforeAll(async () => {
    world = await startDialect('everywhere');
    oracle = await startOracle(world.profile);
  });
  afterAll(async () => {
    await Promise.all([world?.close(), oracle?.close()]);
  });

  it('no divergence, none intermittent, every family walked', async () => {
    for (const seed of [21, 22]) {
      const partners = explorePartners(viewFor(world.profile, 'explore'));
      const out = await explore({
        sides: {
          target: sideOf(world.profile, 'target', partners, { pacer: new Pacer({ windowScale: world.profile.timing.rateWindowScale }) }),
          oracle: sideOf(oracle.profile, 'oracle', partners),
        },
        can: capabilitiesOf(world.profile, partners),
        context: contextOf(world.profile, explorationTag()),
        budget: 200,
        seed,
      });
      expect({ finding: out.finding?.what, intermittent: out.intermittent?.what, stopped: out.stopped?.why, crash: out.crash }).toEqual({
        finding: undefined,
        intermittent: undefined,
        stopped: undefined,
        crash: undefined,
      });
      expect(Object.entries(out.families).filter(([, f]) => f.leftOut || !f.steps)).toEqual([]);
    }
  }, 240_000);
});
