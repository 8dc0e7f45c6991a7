// Steps of rampart explore, without a target. The sandbox outcome of a pools trade: a trade takes one outcome, so a
// Settle whose trade has moved on reserves a fresh one first (every outcome drawn is asked), and stands down only when
// the sequence may make no more quotes. A step that changes a session reads it back on every view that shows it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CancelSession, CompleteSession, sessionCommands } from '../src/explore/commands/gate/sessions.js';
import { Settle } from '../src/explore/commands/pools/trades.js';
import { FEW } from '../src/explore/commands/command.js';
import { newModel, type Capabilities, type ExploreModel, type QuoteTwin, type TradeTwin } from '../src/explore/model.js';

const can = { pools: true, tradeOutcome: true, poolsBalance: true } as Capabilities;
const ids = (n: number) => ({ target: `t${n}`, oracle: `o${n}` });
function withTrade(state: TradeTwin['state'], quotes = 1, chosen?: TradeTwin['chosen']): ExploreModel {
  const m = newModel(can);
  for (let i = 1; i <= quotes; i++)
    m.quotes.push({
      name: `quote#${i}`,
      id: ids(i),
      state: 'consumed',
      movedBy: 'POOLS-TX-QUOTE-CONSUMED',
      madeAt: Date.now(),
      created: { target: {}, oracle: {} },
    } as QuoteTwin);
  m.trades.push({
    name: 'trade#1',
    id: ids(1),
    state,
    chosen,
    movedBy: 'POOLS-TX-RESERVED',
    madeAt: Date.now(),
    quote: 'quote#1',
    idempotencyKey: 'k',
    created: { target: {}, oracle: {} },
  });
  return m;
}

describe('Settle', () => {
  it('asks the outcome of the reserved trade it picked', () => {
    const m = withTrade('reserved');
    expect(new Settle(0, 'released').check(m)).toBe(true);
    expect(new Settle(0, 'released').label(m)).toBe('choose released (sandbox), then poll trade#1 (reserved)');
  });

  it('reserves a fresh trade first when the one it picked has moved on or was already asked', () => {
    for (const m of [withTrade('settled'), withTrade('reserved', 1, 'failed')]) {
      expect(new Settle(0, 'released').check(m)).toBe(true);
      expect(new Settle(0, 'released').label(m)).toMatch(/^request a firm quote and transact it, then choose released \(sandbox\), then poll the trade/);
    }
  });

  it('stands down when the sequence may make no more quotes, or the sandbox cannot choose', () => {
    expect(new Settle(0, 'released').check(withTrade('settled', FEW))).toBe(false);
    expect(new Settle(0, 'released').check(withTrade('reserved', FEW))).toBe(true);
    const m = withTrade('reserved');
    m.can = { ...can, tradeOutcome: false };
    expect(new Settle(0, 'released').check(m)).toBe(false);
    expect(new Settle(0, 'released').check(newModel(can))).toBe(false);
  });
});

const sessionModel = (can: Partial<Capabilities> = {}) => {
  const m = newModel({ gate: true, completeSession: true, expireSession: true, embed: true, sessionLifetimeMs: 3_600_000, ...can } as Capabilities);
  m.sessions.push({
    name: 'session#1',
    id: ids(1),
    state: 'open',
    movedBy: 'GATE-SESS-CREATE-SHAPE',
    madeAt: Date.now(),
    idempotencyKey: 'k',
    body: {},
    clientSecret: { target: 's', oracle: 's' },
    created: { target: {}, oracle: {} },
  });
  return m;
};

describe('a step that changes a session', () => {
  it('reads the session back and lists sessions, whatever it drew', () => {
    const m = sessionModel();
    const [, , cancel, , , complete, expire, bootstrap] = sessionCommands();
    for (const arb of [cancel!, complete!, expire!, bootstrap!])
      for (const step of fc.sample(arb, { seed: 1, numRuns: 20 })) {
        expect(step.check(m)).toBe(true);
        expect(step.label(m)).toMatch(/list(ing)? sessions$/);
      }
  });
});

describe('a step that ends a session late', () => {
  it('moves expires_at into the past first, where it is not yet', () => {
    const m = sessionModel();
    expect(new CancelSession(0, 'list', true).label(m)).toBe('move past expires_at (sandbox), then cancel session#1, then retrieve it and list sessions');
    expect(new CompleteSession(0, 'list', false).label(m)).toBe('complete (sandbox) session#1, then retrieve it and list sessions');
    m.sessions[0]!.expiresPast = true;
    expect(new CompleteSession(0, 'list', true).label(m)).toBe('complete (sandbox) session#1, then retrieve it and list sessions');
  });

  it('stands down where the sandbox cannot move expires_at', () => {
    expect(new CancelSession(0, 'list', true).check(sessionModel({ expireSession: false }))).toBe(false);
    expect(new CancelSession(0, 'list', false).check(sessionModel({ expireSession: false }))).toBe(true);
  });
});

describe('a step that ends a session already ended', () => {
  it('opens a fresh session first while the sequence may make more', () => {
    const m = sessionModel();
    m.sessions[0]!.state = 'completed';
    expect(new CancelSession(0, 'list', false).check(m)).toBe(true);
    expect(new CancelSession(0, 'list', false).label(m)).toBe('create a session, then cancel the session, then retrieve it and list sessions');
    expect(new CompleteSession(0, 'around', true).label(m)).toMatch(
      /^create a session, then move past expires_at \(sandbox\), then complete \(sandbox\) the session/,
    );
  });

  it('past that, a cancel asks the ended one (its 409) and a completion stands down', () => {
    const m = sessionModel();
    for (let i = 1; i < FEW; i++) m.sessions.push({ ...m.sessions[0]!, name: `session#${i + 1}`, id: ids(i + 1) });
    for (const s of m.sessions) s.state = 'cancelled';
    expect(new CancelSession(0, 'list', false).check(m)).toBe(true);
    expect(new CancelSession(0, 'list', false).label(m)).toMatch(/^cancel session#3/);
    expect(new CompleteSession(0, 'list', false).check(m)).toBe(false);
  });
});
