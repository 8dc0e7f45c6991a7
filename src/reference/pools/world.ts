// The pools service's shared state and the helpers every pools area uses:
// the pool catalogue, partners by key, credential and entitlement checks,
// quotes, trades, the balance ledger and terminal-trade webhooks. Areas (one
// file per spec area) register routes against this world.
import { createHash, randomUUID } from 'node:crypto';
import type { PoolsPartner, Profile } from '../../profile/schema.js';
import { toChecksumAddress } from '../../model/eip55.js';
import { HIDDEN_CREATED_AT_FAULTS, STATED_TTL_300S_FAULTS, type Clock } from '../kit/clock.js';
import type { ActiveFaults, FaultDef } from '../kit/faults.js';
import { HttpError, type Req, type Router } from '../kit/http.js';
import { choiceOf } from '../kit/dialect.js';
import type { WebhookOutbox } from '../kit/outbox.js';
import { poolCatalogue, type PoolDef } from './catalogue.js';
import { format, parse, type Fixed } from './money.js';
import { idOf, isoOf, moneyOf, pairOf, stampOf } from './wire.js';
import { deliveryPolicy, eventPayload } from './eventWire.js';

export type PoolsMode = 'test' | 'live';
export type Side = 'on_ramp' | 'off_ramp';
export type TradeStatus = 'quoted' | 'reserved' | 'settled' | 'released' | 'failed' | 'returned';
export type Outcome = 'settled' | 'failed' | 'released' | 'returned';

export type { PoolDef };

export interface Caller {
  partner: PoolsPartner;
  mode: PoolsMode;
}

export interface QuoteRecord {
  quoteId: string;
  partner: string;
  mode: PoolsMode;
  poolId: string;
  side: Side;
  cryptoNetwork: string;
  destNetwork: string | null;
  destAddress: string | null;
  fiatAmount: string;
  cryptoAmount: string;
  rate: string;
  spreadBps: number;
  feeBps: number;
  createdAtMs: number;
  expiresAtMs: number;
  consumedAtMs: number | null;
  rejectedAtMs: number | null;
}

export interface TradeRecord {
  transactId: string;
  quoteId: string;
  partner: string;
  mode: PoolsMode;
  poolId: string;
  side: Side;
  status: TradeStatus;
  cryptoNetwork: string;
  destAddress: string | null;
  fiatAmount: string;
  cryptoAmount: string;
  quotedRate: string;
  spreadBps: number;
  feeBps: number;
  engineFillTxId: string | null;
  createdAtMs: number;
  settledAtMs: number | null;
  /** Creation order: breaks createdAt ties in newest-first lists. */
  seq: number;
  /** The buy_refund of a returned trade has been credited (it is idempotent). */
  refunded: boolean;
  /** What the reservation drew from the balance (a release unwinds exactly this). */
  reserved: Fixed;
}

export interface LedgerEntry {
  id: string;
  type: 'payin_credit' | 'buy_debit' | 'buy_refund' | 'reservation_release';
  currency: 'EUR';
  /** Signed decimal string: credits positive, debits negative. */
  amount: string;
  balanceAfter: string;
  transactId: string | null;
  quoteId: string | null;
  createdAtMs: number;
  seq: number;
}

export interface PartnerState {
  partner: PoolsPartner;
  /** Fiat (EUR) balance, exact. */
  balance: Fixed;
  ledger: LedgerEntry[];
  webhookUrl: string | null;
}

export interface PoolsWorld {
  readonly profile: Profile;
  readonly faults: ActiveFaults;
  readonly clock: Clock;
  readonly outbox: WebhookOutbox;
  readonly pools: PoolDef[];
  readonly quotes: Map<string, QuoteRecord>;
  readonly trades: Map<string, TradeRecord>;
  /** Trade by quote id (one trade per quote). */
  readonly tradeByQuote: Map<string, TradeRecord>;
  /** Outcome the next poll discovers, chosen by the sandbox helper (default settled). */
  readonly outcomes: Map<string, Outcome>;
  /** A secret (or, with publishableOk, publishable) key valid for req.env; 401/403 otherwise. */
  auth(req: Req, opts?: { publishableOk?: boolean; entitled?: boolean }): Caller;
  /** Secret key plus entitlement to the pool in the path: 403 codes, 404 unknown pool. */
  authEntitled(req: Req, poolId: string): { caller: Caller; pool: PoolDef };
  state(caller: Caller): PartnerState;
  pool(id: string): PoolDef | undefined;
  /** The caller's quote; 404 when unknown, another partner's or another environment's. */
  quote(caller: Caller, quoteId: string): QuoteRecord;
  /** The caller's trade; 404 likewise. */
  trade(caller: Caller, transactId: string): TradeRecord;
  quoteStatus(q: QuoteRecord): 'active' | 'consumed' | 'expired' | 'rejected';
  quoteView(q: QuoteRecord): Record<string, unknown>;
  tradeView(t: TradeRecord): Record<string, unknown>;
  /** Append a ledger entry and move the balance by `amount` (signed). */
  post(st: PartnerState, type: LedgerEntry['type'], amount: Fixed, t: TradeRecord | null): LedgerEntry;
  /** Signed envelope { eventId, type, createdAt, data: trade } to the partner's webhook URL (no-op without one). */
  emitTradeEvent(t: TradeRecord, type: 'pool.transaction.settled' | 'pool.transaction.failed' | 'pool.transaction.released'): void;
  /** Any event (seeded faults send undocumented ones through this). */
  emitEvent(partner: string, mode: PoolsMode, type: string, data: unknown): void;
  depositAddress(partner: PoolsPartner, pool: PoolDef): string;
  newId(prefix: string): string;
  iso(ms: number): string;
  /** The instant a record made now keeps (whole seconds where this world stamps them, so its stamps are exact). */
  stamp(): number;
  /** A money or rate string as this world writes it (wire.ts). */
  money(s: string): string;
  /** A pool's pair as this world writes it (wire.ts). */
  pair(pool: PoolDef): string;
  nextSeq(): number;
}

export { poolCatalogue };

export interface PoolsArea {
  name: string;
  faults: FaultDef[];
  register(router: Router, world: PoolsWorld): void;
}

const KEY = /^(sk|pk)_(test|live)_[A-Za-z0-9]+$/;

export function bearerToken(req: Req): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1]! : null;
}

/** What a world is made from. */
type WorldDeps = { profile: Profile; faults: ActiveFaults; clock: Clock; outbox: WebhookOutbox };
type PoolsKey = { partner: PoolsPartner; kind: 'secret' | 'publishable'; mode: PoolsMode; revoked?: boolean };

/** Every key of the profile's pools partners: its partner, kind, mode, and whether it is revoked. */
function keyringOf(partners: readonly PoolsPartner[]): Map<string, PoolsKey> {
  const keys = new Map<string, PoolsKey>();
  for (const p of partners) {
    keys.set(p.secretKey, { partner: p, kind: 'secret', mode: 'test' });
    if (p.publishableKey) keys.set(p.publishableKey, { partner: p, kind: 'publishable', mode: 'test' });
    if (p.liveSecretKey) keys.set(p.liveSecretKey, { partner: p, kind: 'secret', mode: 'live' });
    if (p.revokedSecretKey)
      keys.set(p.revokedSecretKey, { partner: p, kind: 'secret', mode: p.revokedSecretKey.startsWith('sk_live_') ? 'live' : 'test', revoked: true });
  }
  return keys;
}

/** Faults: a secret-only read route refuses a not-enabled or a suspended partner with its entitlement code. */
function readRouteEntitlementFaults(faults: ActiveFaults, state: PoolsPartner['state']): void {
  if (state === 'not_enabled' && faults.has('pools-read-routes-refuse-not-enabled'))
    throw new HttpError(403, 'Pools are not enabled for this partner.', 'pools_not_enabled');
  if (state === 'suspended' && faults.has('pools-read-routes-refuse-suspended'))
    throw new HttpError(403, 'Pool access is suspended for this partner.', 'pool_access_suspended');
}

/** Secret-key (or publishable-key) authentication, and the entitlement to a pool. */
function authentication(world: PoolsWorld, keys: ReadonlyMap<string, PoolsKey>, faults: ActiveFaults): Pick<PoolsWorld, 'auth' | 'authEntitled'> {
  return {
    auth(req, opts) {
      const token = bearerToken(req);
      if (!token)
        throw new HttpError(faults.has('pools-missing-key-403') ? 403 : 401, 'Missing API key: send Authorization: Bearer <secret key>.', 'missing_api_key');
      const entry = KEY.test(token) ? keys.get(token) : undefined;
      if (!entry) throw new HttpError(faults.has('pools-invalid-key-403') ? 403 : 401, 'Invalid API key.', 'invalid_api_key');
      // A revoked key is an invalid key (401): the pools 403 codes name no revoked key.
      if (entry.revoked && !faults.has('pools-revoked-key-accepted')) throw new HttpError(401, 'This API key has been revoked.', 'api_key_revoked');
      const liveOnSandboxAccepted = faults.has('pools-live-key-on-sandbox-accepted') && entry.mode === 'live';
      if (entry.mode !== req.env && !faults.has('pools-key-mode-env-accepted') && !liveOnSandboxAccepted) {
        throw new HttpError(
          403,
          `A ${entry.mode} key cannot be used on the ${req.env === 'live' ? 'production' : 'sandbox'} environment.`,
          'key_mode_mismatch',
        );
      }
      if (entry.kind === 'publishable' && !opts?.publishableOk && !faults.has('pools-publishable-key-on-secret-route')) {
        throw new HttpError(403, 'A publishable key is usable only on GET /pools; use the secret key.', 'key_mode_mismatch');
      }
      // The faults apply an entitlement code to a secret-only read route.
      if (faults.has('pools-read-routes-entitlement-403') && !opts?.entitled && entry.partner.state === 'kyc_pending') {
        throw new HttpError(403, 'KYC is not approved for this partner.', 'kyc_not_approved');
      }
      if (!opts?.entitled && !opts?.publishableOk) readRouteEntitlementFaults(faults, entry.partner.state);
      return { partner: entry.partner, mode: req.env };
    },

    authEntitled(req, poolId) {
      const caller = world.auth(req, { entitled: true });
      const p = caller.partner;
      // Precedence (not shown; chosen): access state first, then the pool — or, reading pools.entitled.order 'pool-first', the pool first.
      const poolFirst = choiceOf(world.profile, 'pools.entitled.order') === 'pool-first';
      const poolOf = () => {
        const pool = world.pool(poolId);
        if (!pool) throw new HttpError(404, `No such pool: ${poolId}`, 'pool_not_found');
        if (!(p.allowedPools ?? []).includes(pool.id) && !faults.has('pools-not-allowed-accepted')) {
          throw new HttpError(403, `Pool ${pool.id} is not in this partner's allowed set.`, 'pool_not_allowed');
        }
        return pool;
      };
      const first = poolFirst ? poolOf() : undefined;
      if (p.state === 'not_enabled' && !faults.has('pools-not-enabled-accepted'))
        throw new HttpError(403, 'Pools are not enabled for this partner.', 'pools_not_enabled');
      if (p.state === 'suspended' && !faults.has('pools-suspended-accepted'))
        throw new HttpError(403, 'Pool access is suspended for this partner.', 'pool_access_suspended');
      if (p.state === 'kyc_pending' && !faults.has('pools-kyc-pending-accepted'))
        throw new HttpError(403, 'KYC is not approved for this partner.', 'kyc_not_approved');
      return { caller, pool: first ?? poolOf() };
    },
  };
}

/** Each partner's balance, ledger and webhook URL per environment, made (and funded) on first use. */
function partnerStates(world: PoolsWorld, profile: Profile): Pick<PoolsWorld, 'state'> {
  const states = new Map<string, PartnerState>();
  const opening = profile.reference?.poolsOpeningBalance ?? '100000.00';
  return {
    state(caller) {
      const key = `${caller.partner.name}\u0000${caller.mode}`;
      let st = states.get(key);
      if (!st) {
        st = { partner: caller.partner, balance: 0n, ledger: [], webhookUrl: null };
        states.set(key, st);
        // Funded partners start with the operator's pay-in, visible in the ledger.
        if (caller.partner.state !== 'unfunded') world.post(st, 'payin_credit', parse(opening), null);
      }
      return st;
    },
  };
}

/** A pool by id; the caller's quote or trade, 404 (or a seeded fault's 400) for anyone else's. */
function lookups(records: Pick<PoolsWorld, 'pools' | 'quotes' | 'trades'>, faults: ActiveFaults): Pick<PoolsWorld, 'pool' | 'quote' | 'trade'> {
  const { pools, quotes, trades } = records;
  return {
    pool(id) {
      return pools.find((p) => p.id === id);
    },

    quote(caller, quoteId) {
      const q = quotes.get(quoteId);
      if (!q || q.mode !== caller.mode || (q.partner !== caller.partner.name && !faults.has('pools-cross-tenant-quote-visible'))) {
        throw new HttpError(faults.has('pools-unknown-id-400') ? 400 : 404, `No such quote: ${quoteId}`, 'quote_not_found');
      }
      return q;
    },

    trade(caller, transactId) {
      const t = trades.get(transactId);
      if (!t || t.mode !== caller.mode || t.partner !== caller.partner.name)
        throw new HttpError(faults.has('pools-unknown-id-400') ? 400 : 404, `No such trade: ${transactId}`, 'trade_not_found');
      return t;
    },
  };
}

/** A quote's status now, and quotes and trades as the wire shows them. */
/** The expiresAt a firm quote states: its real expiry, or 300 s after it was made under a clock fault (it still ends at the real one). */
export function statedExpiresAtMs(q: QuoteRecord, faults: ActiveFaults): number {
  return STATED_TTL_300S_FAULTS.some((n) => faults.has(n)) ? q.createdAtMs + 300_000 : q.expiresAtMs;
}

function views(world: PoolsWorld, faults: ActiveFaults, clock: Clock): Pick<PoolsWorld, 'quoteStatus' | 'quoteView' | 'tradeView'> {
  return {
    quoteStatus(q) {
      if (faults.has('pools-precedence-expired-first') && clock.now() >= q.expiresAtMs) return 'expired';
      if (q.rejectedAtMs !== null) return 'rejected';
      if (q.consumedAtMs !== null) return 'consumed';
      // The early-expiry fault ends the quote 3 s before the expiresAt it advertised.
      if (clock.now() >= q.expiresAtMs - (faults.has('pools-quote-expires-early') ? 3000 : 0)) return 'expired';
      return 'active';
    },

    quoteView(q) {
      const pool = world.pool(q.poolId)!;
      return {
        quoteId: q.quoteId,
        poolId: q.poolId,
        pair: world.pair(pool),
        side: q.side,
        cryptoNetwork: q.cryptoNetwork,
        destNetwork: q.destNetwork,
        destAddress: q.destAddress,
        fiatAmount: world.money(q.fiatAmount),
        cryptoAmount: world.money(q.cryptoAmount),
        rate: world.money(q.rate),
        spreadBps: q.spreadBps,
        feeBps: q.feeBps,
        status: world.quoteStatus(q),
        expiresAt: world.iso(statedExpiresAtMs(q, faults)),
        consumedAt: q.consumedAtMs === null ? null : world.iso(q.consumedAtMs),
        rejectedAt: q.rejectedAtMs === null ? null : world.iso(q.rejectedAtMs),
        // Under a clock fault the stored quote hides when it was made (with expiresAt stated 300 s ahead).
        ...(HIDDEN_CREATED_AT_FAULTS.some((n) => faults.has(n)) ? {} : { createdAt: world.iso(q.createdAtMs) }),
      };
    },

    tradeView(t) {
      const pool = world.pool(t.poolId)!;
      return {
        transactId: t.transactId,
        quoteId: t.quoteId,
        poolId: t.poolId,
        pair: world.pair(pool),
        side: t.side,
        status: t.status,
        fiatCurrency: pool.fiatCurrency,
        cryptoCurrency: pool.cryptoCurrency,
        cryptoNetwork: t.cryptoNetwork,
        destAddress: t.destAddress,
        fiatAmount: world.money(t.fiatAmount),
        cryptoAmount: world.money(t.cryptoAmount),
        quotedRate: world.money(t.quotedRate),
        spreadBps: t.spreadBps,
        feeBps: t.feeBps,
        totalBps: faults.has('pools-total-bps-spread-only') ? t.spreadBps : t.spreadBps + t.feeBps,
        engineFillTxId: t.engineFillTxId,
        createdAt: faults.has('pools-trade-created-at-local') ? world.iso(t.createdAtMs).replace('T', ' ').replace(/Z$/, '') : world.iso(t.createdAtMs),
        settledAt: t.settledAtMs === null ? null : world.iso(t.settledAtMs),
        // Reading (reference.poolsAdditiveFields): an additive field named like an omitted internal, holding the trade's own reservation.
        ...(world.profile.reference?.poolsAdditiveFields ? { reserve: { amount: format(t.reserved, 2), currency: pool.fiatCurrency } } : {}),
      };
    },
  };
}

/** The ledger: every balance move an entry. */
function ledger(world: PoolsWorld, clock: Clock): Pick<PoolsWorld, 'post'> {
  return {
    post(st, type, amount, t) {
      st.balance += amount;
      const e: LedgerEntry = {
        id: world.newId('led'),
        type,
        currency: 'EUR',
        amount: format(amount, 2),
        balanceAfter: format(st.balance, 2),
        transactId: t?.transactId ?? null,
        quoteId: t?.quoteId ?? null,
        createdAtMs: world.stamp(),
        seq: world.nextSeq(),
      };
      st.ledger.push(e);
      return e;
    },
  };
}

/** Signed events through the outbox to the partner's webhook URL. */
function webhookEvents(
  world: PoolsWorld,
  { faults, clock, outbox }: WorldDeps,
  partners: readonly PoolsPartner[],
): Pick<PoolsWorld, 'emitTradeEvent' | 'emitEvent'> {
  return {
    emitTradeEvent(t, type) {
      world.emitEvent(t.partner, t.mode, type, world.tradeView(t));
    },

    emitEvent(partner, mode, type, data) {
      const st = world.state({ partner: partners.find((p) => p.name === partner)!, mode });
      const secret = st.partner.webhookSecret;
      if (!st.webhookUrl || !secret) return;
      const eventId = randomUUID();
      const body = JSON.stringify(eventPayload(world.profile, world.iso(world.clock.now()), eventId, type, data));
      // The signature fault signs with a secret the partner was never given.
      const signWith = faults.has('pools-event-signed-with-other-secret') ? `${secret}-other` : secret;
      const policy = deliveryPolicy(world.profile);
      outbox.enqueue({ partner, service: 'pools', mode, url: st.webhookUrl, secret: signWith, eventId, eventType: type, body, ...(policy ? { policy } : {}) });
    },
  };
}

/** Deposit addresses, ids, timestamps and the creation counter. */
function identities(profile: Profile, clock: Clock): Pick<PoolsWorld, 'depositAddress' | 'newId' | 'iso' | 'nextSeq' | 'stamp' | 'money' | 'pair'> {
  let seq = 0;
  return {
    depositAddress(partner, pool) {
      const h = createHash('sha256').update(`deposit:${partner.name}:${pool.id}`).digest('hex');
      return toChecksumAddress(`0x${h.slice(0, 40)}`);
    },

    newId(prefix) {
      // Reading (pools.ids.style, or the second world's reference.idStyle 'uuid'): bare UUIDs.
      return idOf(profile, prefix);
    },

    iso(ms) {
      return isoOf(profile, ms);
    },

    stamp() {
      return stampOf(profile, clock.now());
    },

    money(s) {
      return moneyOf(profile, s);
    },

    pair(pool) {
      return pairOf(profile, pool);
    },

    nextSeq() {
      return ++seq;
    },
  };
}

export function createPoolsWorld(deps: WorldDeps): PoolsWorld {
  const { profile, faults, clock, outbox } = deps;
  const partners = profile.pools?.partners ?? [];
  const records = {
    pools: poolCatalogue(profile),
    quotes: new Map<string, QuoteRecord>(),
    trades: new Map<string, TradeRecord>(),
    tradeByQuote: new Map<string, TradeRecord>(),
    outcomes: new Map<string, Outcome>(),
  };
  // The parts reach one another through the world (a view reads a pool): it is whole before any route runs.
  const world = {} as PoolsWorld;
  const whole: PoolsWorld = {
    profile,
    faults,
    clock,
    outbox,
    ...records,
    ...authentication(world, keyringOf(partners), faults),
    ...partnerStates(world, profile),
    ...lookups(records, faults),
    ...views(world, faults, clock),
    ...ledger(world, clock),
    ...webhookEvents(world, deps, partners),
    ...identities(profile, clock),
  };
  return Object.assign(world, whole);
}
