// The model of one explored sequence: the objects the sequence made, each a twin — its id on the target and its
// id on the oracle (the embedded reference driven over HTTP beside it) — with what the sequence did to it, so a
// command knows when it applies (fast-check's `check`) and what a later answer refers to. It holds nothing the
// target's history holds: only objects this sequence made are compared.
import type { RequirementId } from '../model/catalogue/index.js';

export type Side = 'target' | 'oracle';

/** One object of the sequence on both sides. */
export interface Twin<S = string> {
  /** model-unique name in the step log ("session#2"). */
  name: string;
  id: Record<Side, string>;
  /** The state the oracle last gave it (the sequence's truth for what the specs determine). */
  state: S;
  /** The rule whose transition last moved it: a later answer disagreeing on its state breaks that rule. */
  movedBy: RequirementId;
  /** Harness time it was made at (ms): lifetimes are counted from here, with room for the clocks. */
  madeAt: number;
  /** Set when the specs let the two sides part on this object (a not-shown outcome): no later step uses it. */
  parted?: string;
}

export interface SessionTwin extends Twin<'open' | 'completed' | 'expired' | 'cancelled'> {
  idempotencyKey: string;
  body: Record<string, unknown>;
  clientSecret: Record<Side, string | undefined>;
  /** Each side's creation answer: an idempotent replay must give it again. */
  created: Record<Side, Record<string, unknown>>;
  /** A sandbox trigger moved expires_at into the past; the next bootstrap expires it. */
  expiresPast?: boolean;
  /** Each side's embed token from the last bootstrap or refresh (the JWT the answer carries), once both gave one. */
  embedToken?: Record<Side, string>;
}

export interface CustomerTwin extends Twin<'active' | 'deleted'> {
  idempotencyKey: string;
  body: Record<string, unknown>;
  email: string;
  externalId: string;
  /** The deletion marker each side gave first: a repeat must give it again. */
  marker?: Record<Side, Record<string, unknown>>;
  /** The rule each field's value was last set by (a PATCH's): a later answer disagreeing on it breaks that rule. */
  rules: Partial<Record<string, RequirementId>>;
}

export interface QuoteTwin extends Twin<'active' | 'consumed' | 'rejected' | 'expired'> {
  /** Each side's creation answer (firm quote). */
  created: Record<Side, Record<string, unknown>>;
  /** The trade a transact made of it, by model name. */
  trade?: string;
}

export interface TradeTwin extends Twin<'reserved' | 'settled' | 'released' | 'failed' | 'returned'> {
  quote: string;
  idempotencyKey: string;
  /** Each side's transact answer: a replay under the same key must give the same trade. */
  created: Record<Side, Record<string, unknown>>;
  /** The outcome a sandbox trigger chose for the next poll. */
  chosen?: 'settled' | 'failed' | 'released' | 'returned';
}

/** A webhook delivery the sequence made (POST /webhooks/test): it moves on its own, so each side is judged on itself. */
export interface DeliveryTwin extends Twin<'pending' | 'in_flight' | 'succeeded' | 'dead_lettered'> {
  /** Each side's creation answer (its event id, target_url and event type stay the delivery's). */
  created: Record<Side, Record<string, unknown>>;
  /** The status each side last listed it with (undefined until listed). */
  seen: Record<Side, string | undefined>;
}

/** A signed Gate quote the sequence locked (the profile's createSignedQuote), for a session it opened. */
export interface SignedQuoteTwin extends Twin<'active' | 'consumed'> {
  side: 'on_ramp' | 'off_ramp';
  /** The session it was locked for (a twin in `sessions`). */
  session: string;
  /** Each side's fiat_pay_or_receive, where its lock answer shows one. */
  fiat: Record<Side, string | undefined>;
  /** Each side's currency of the quote, where its lock answer or its inspection shows one (a pay-out takes it). */
  currency: Record<Side, string | undefined>;
  /** The sandbox's expireSignedQuote moved it (on both sides): no redemption may take it any more. */
  expired?: boolean;
  /** Harness time the lock was sent (ms): a declared lifetime counts from here. */
  lockSentAt: number;
}

/** A pay-out or pay-in the sequence made by redeeming a signed quote. */
export interface RailTwin extends Twin<string> {
  kind: 'pay_out' | 'pay_in';
  quote: string;
  idempotencyKey: string;
  /** The body each side was sent (a replay sends it again). */
  body: Record<Side, Record<string, unknown>>;
  /** Each side's creation answer and its status: a replay must answer them again. */
  created: Record<Side, Record<string, unknown>>;
  status: Record<Side, number>;
}

/**
 * What the sequence did since the balance was last read: a reserve (transact), its unwinding (a release), a failure
 * (whether it unwinds is not shown), a refund (a return), a reject, a transact of a consumed quote under another key
 * or a replay under the same one (both answer the existing trade: no money moves).
 */
export type BalanceMove = 'reserve' | 'unwind' | 'failed' | 'reject' | 'refund' | 'other-key' | 'replay';

export interface ExploreModel {
  sessions: SessionTwin[];
  customers: CustomerTwin[];
  quotes: QuoteTwin[];
  trades: TradeTwin[];
  deliveries: DeliveryTwin[];
  signedQuotes: SignedQuoteTwin[];
  rails: RailTwin[];
  /** The webhook_url this sequence configured on both sides (each through its own configureWebhook); why not, if it could not. */
  webhook: { url?: string; refused?: string };
  /** Each side's pools balance at its last read, and what the sequence did to the balance since. */
  balance: { seen: Record<Side, string | null>; since: Set<BalanceMove> };
  /** Branding each side last showed (null until this sequence read it). */
  branding: Record<Side, Record<string, unknown> | null>;
  /** A per-run counter for unique names (emails, step names). */
  serial: number;
  /** What the profile lets this run do (triggers, roles): commands consult it in `check`. */
  can: Capabilities;
  /** The sequence cannot afford another step: every command stands down (the run ends as it is). */
  spent: boolean;
}

export interface Capabilities {
  /** The services the run explores (--service narrows them). */
  services: readonly ('gate' | 'pools')[];
  gate: boolean;
  pools: boolean;
  /** Why a service of the run has no partner explore may act as, or its rails cannot be locked (reported with every family it leaves out). */
  why: Partial<Record<'gate' | 'pools' | 'rails', string>>;
  completeSession: boolean;
  expireSession: boolean;
  embed: boolean;
  tradeOutcome: boolean;
  /** The pools partner's balance is readable (balance gate on). */
  poolsBalance: boolean;
  /** The firm quote's lifetime (the spec's, about 15 s) and the tolerance the profile declares around it (ms). */
  quoteTtlMs: number;
  quoteTtlToleranceMs: number;
  /** Lifetimes as the profile declares them (ms): an object past them is no longer clearly alive. */
  sessionLifetimeMs: number;
  /** The target's sandbox declares configureWebhook (the oracle's always does): webhook deliveries can be made on both sides. */
  webhooks: boolean;
  /** The Gate partner is rail-entitled and the profile says how to lock a signed quote (createSignedQuote). */
  rails: boolean;
  /** The profile gives the pay-in body (payInBody). */
  payIn: boolean;
  /** The profile declares expireSignedQuote. */
  expireSignedQuote: boolean;
  /** The signed quote's lifetime the profile declares (ms); undefined: not declared (not shown in the spec). */
  signedQuoteLifetimeMs?: number;
}

export function newModel(can: Capabilities): ExploreModel {
  return {
    sessions: [],
    customers: [],
    quotes: [],
    trades: [],
    deliveries: [],
    signedQuotes: [],
    rails: [],
    webhook: {},
    balance: { seen: { target: null, oracle: null }, since: new Set() },
    branding: { target: null, oracle: null },
    serial: 0,
    can,
    spent: false,
  };
}

/** The twins still usable by a later step (not parted by a not-shown outcome). */
export const live = <T extends Twin<unknown>>(xs: readonly T[]): T[] => xs.filter((x) => !x.parted);

/**
 * The twin a generated index picks: the index-th most recent of the kind (0: the last made), so a sequence dwells
 * on the object it just made, and a shrink that drops an earlier object keeps the step on the same one.
 */
export function pick<T>(xs: readonly T[], index: number): T | undefined {
  return xs.length ? xs[xs.length - 1 - (index % xs.length)] : undefined;
}

/** Which twin an id names on one side, among every kind of object the sequence made. */
export function nameOf(m: ExploreModel, side: Side, id: unknown): string | undefined {
  // An empty id names nothing (a pay-in whose answer offers none is kept with an empty one).
  if (typeof id !== 'string' || !id) return undefined;
  for (const xs of [m.sessions, m.customers, m.quotes, m.trades, m.deliveries, m.signedQuotes, m.rails] as Twin<unknown>[][]) {
    const hit = xs.find((x) => x.id[side] === id);
    if (hit) return hit.name;
  }
  return undefined;
}
