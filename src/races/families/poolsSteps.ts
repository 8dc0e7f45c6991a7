// Steps the pools race families share before and after their bursts: a firm quote on the profile's main pool (its
// body from pools.quote, the amount the family's), a transact, the balance, the trades of a quote, a poll, the
// sandbox's outcome for the next poll — and their paths.
import type { Exchange } from '../../client/types.js';
import type { RequirementId } from '../../model/catalogue/index.js';
import { STORED_QUOTE_RELATIONS } from '../../model/schemas/pools/resources.js';
import type { AfterRead } from '../family.js';
import { CheckUnverified } from '../../runner/expect.js';
import { expectOk, fieldOf } from '../expectStep.js';
import type { RaceSide } from '../side.js';

export const poolPath = (pool: string, rest: string) => `/pools/${encodeURIComponent(pool)}${rest}`;
export const quotePath = (quoteId: string, rest = '') => `/pools/quotes/${encodeURIComponent(quoteId)}${rest}`;
export const pollPath = (quoteId: string) => `/pools/transactions/${encodeURIComponent(quoteId)}`;

/** The profile's main pool. */
export function mainPool(side: RaceSide): string {
  const pool = side.profile.pools?.pools.main;
  if (!pool) throw new Error(`the ${side.name} has no pools section`);
  return pool;
}

/** A firm on_ramp quote body: the profile's pools.quote, the amount given (else the profile's). */
export function quoteBody(side: RaceSide, amount?: string): Record<string, unknown> {
  const own = Object.fromEntries(Object.entries(side.profile.pools?.quote ?? {}).filter(([k]) => k !== '$comment'));
  return { side: 'on_ramp', ...own, type: 'firm', ...(amount ? { amount } : {}) };
}

/** A firm quote made before the burst: its quoteId. A quote the target does not make firm leaves the race unreached. */
export async function makeQuote(side: RaceSide, amount?: string): Promise<string> {
  const ex = await side.send(`a firm quote${amount ? ` of ${amount}` : ''}`, 'pools', {
    method: 'POST',
    path: poolPath(mainPool(side), '/quote'),
    body: quoteBody(side, amount),
  });
  expectOk(side, ex, 'POOLS-QUOTE-FIRM-SHAPE', 'POST /pools/{id}/quote');
  const j = ex.json as Record<string, unknown> | undefined;
  if (j?.executable !== true || typeof j.quoteId !== 'string') {
    if (side.name === 'oracle') throw new Error(`the races oracle made no firm quote: ${ex.bodyText.slice(0, 200)}`);
    throw new CheckUnverified(
      `the pool's quote${amount ? ` of ${amount}` : ''} came back not executable (${String(j?.unavailableReason ?? j?.available)}): no firm quote to race on`,
      ex,
    );
  }
  return j.quoteId;
}

export function transactRequest(pool: string, quoteId: string, key: string) {
  return { method: 'POST' as const, path: poolPath(pool, '/transact'), body: { quoteId }, idempotencyKey: key };
}

/** A transact made before the burst (its own key): the trade's transactId. */
export async function makeTrade(side: RaceSide, quoteId: string, key: string): Promise<string> {
  const ex = await side.send('transact the quote', 'pools', transactRequest(mainPool(side), quoteId, key));
  expectOk(side, ex, 'POOLS-TX-RESERVED', 'POST /pools/{id}/transact');
  return fieldOf(side, ex, 'transactId', 'POOLS-TX-RESERVED', 'POST /pools/{id}/transact');
}

/** The partner's balance on the main pool (a decimal string), or the race is unreached where the balance gate is off. */
export async function readBalance(side: RaceSide, label: string): Promise<{ exchange: Exchange; balance: string }> {
  const ex = await side.send(label, 'pools', { method: 'GET', path: poolPath(mainPool(side), '/balance') });
  expectOk(side, ex, 'POOLS-BAL-SHAPE', 'GET /pools/{id}/balance');
  const b = (ex.json as Record<string, unknown> | undefined)?.balance;
  if (typeof b === 'string') return { exchange: ex, balance: b };
  if (side.name === 'oracle') throw new Error('the races oracle shows no balance');
  throw new CheckUnverified(`the partner's balance reads ${JSON.stringify(b)}: a race on the balance needs the balance gate on`, ex);
}

/** How many trades of the first page (newest first) come from `quoteId`: the quote's trades, one at most. */
export async function tradesOfQuote(side: RaceSide, quoteId: string): Promise<{ exchange: Exchange; count: number }> {
  const ex = await side.send('the trades list (first page)', 'pools', { method: 'GET', path: '/pools/trades', query: { limit: 100 } });
  expectOk(side, ex, 'POOLS-TRADES-SHAPE', 'GET /pools/trades');
  const data = (ex.json as { data?: Record<string, unknown>[] } | undefined)?.data;
  return { exchange: ex, count: Array.isArray(data) ? data.filter((t) => t.quoteId === quoteId).length : 0 };
}

/** The sandbox's outcome for the next poll of a quote's trade (pools.triggers.tradeOutcome). */
export async function chooseOutcome(side: RaceSide, quoteId: string, outcome: 'settled' | 'failed' | 'released' | 'returned'): Promise<void> {
  const res = await side.trigger('pools', 'tradeOutcome', { quoteId, outcome });
  if (!res) throw new Error(`the ${side.name} declares no pools.triggers.tradeOutcome`);
  expectOk(side, res.exchange, 'POOLS-POLL-ADVANCES', `the sandbox's tradeOutcome (${outcome})`);
}

/** Decimal arithmetic in cents, exact (no floats): a − b, and a × n / d rounded down. */
export function cents(d: string): bigint {
  const [i = '0', f = ''] = d.replace(/^-/, '').split('.');
  const v = BigInt(i + f.padEnd(2, '0').slice(0, 2));
  return d.startsWith('-') ? -v : v;
}
export const fromCents = (c: bigint) => `${c < 0n ? '-' : ''}${(c < 0n ? -c : c) / 100n}.${String((c < 0n ? -c : c) % 100n).padStart(2, '0')}`;

/** A balance's move from `before` to `after` in trade amounts, to the nearest whole (a fee is a small part of one). */
export function inTradeAmounts(before: string, after: string, amount: string): number {
  return Math.round(Number(cents(after) - cents(before)) / Number(cents(amount)));
}

/**
 * The reads after a burst on one quote: the stored quote (its status by the precedence, compared under `statusRule`)
 * and how many trades the list shows of it (a count, compared as it is: one at most).
 */
export async function quoteAndItsTrades(side: RaceSide, quote: string, statusRule: RequirementId, countRule: RequirementId): Promise<AfterRead[]> {
  const stored = await side.send('read the stored quote', 'pools', { method: 'GET', path: quotePath(quote) });
  const { exchange, count } = await tradesOfQuote(side, quote);
  return [
    {
      label: 'the stored quote after the burst',
      exchange: stored,
      rule: { outcome: { requirement: { '2xx': statusRule } }, relations: STORED_QUOTE_RELATIONS, requirementOf: { status: statusRule } },
    },
    { label: "the quote's trades in the trades list", exchange, rule: { outcome: { requirement: {} } }, value: count, valueRule: countRule },
  ];
}
