// A check is a small declared unit: the requirement ids it covers, the profile
// roles it needs, and a body. The runner provides what it needs (partners,
// a webhook receiver, triggers) or skips it with the missing role as reason.
import type { Proxy, Toxiproxy } from 'toxiproxy-node-client';
import type { ZodType } from 'zod';
import type { ApiClient, Exchange } from '../client/types.js';
import type { GatePartner, PoolsPartner, Profile } from '../profile/schema.js';
import type { RoleName } from '../profile/roles.js';
import type { ReceivedEvent, WebhookReceiver } from '../webhooks/types.js';

export interface CheckDef {
  /** Human name, unique within its suite: "cancel of a terminal session gives 409". */
  name: string;
  /** Requirement ids from the catalogue that this check covers. */
  requirements: string[];
  /** Profile roles the check needs; missing ones skip it with a reason. */
  needs?: RoleName[];
  /** 'full' checks run only at --depth full (skipped with a reason at quick). */
  depth?: 'quick' | 'full';
  /** Upper bound on the check's run time in ms (default 60 s); exceeding it fails the check. */
  timeoutMs?: number;
  run(ctx: CheckContext): Promise<void>;
}

export interface SuiteDef {
  service: 'gate' | 'pools';
  /** Spec section the file mirrors, e.g. "Endpoints > Sessions". */
  section: string;
  checks: CheckDef[];
}

export function defineSuite(suite: SuiteDef): SuiteDef {
  return suite;
}

export interface GateActor {
  partner: GatePartner;
  /** Sandbox client authenticated with the partner's test secret key (publishable via auth: 'publishable'). */
  client: ApiClient;
}

export interface PoolsActor {
  partner: PoolsPartner;
  client: ApiClient;
}

export interface TriggerResult {
  exchange: Exchange;
  /** Values named by the template's `extract`. */
  values: Record<string, unknown>;
}

export interface Expectations {
  /** The status is one of `expected`. Returns the exchange for chaining. */
  status(ex: Exchange, expected: number | number[], requirement?: string): Exchange;
  /**
   * A documented error: the status, the envelope (type, code string, message string,
   * request_id string, doc_url string|null, statusCode mirroring the status) and the
   * X-Request-Id header equal to request_id. `code` is checked only when given.
   */
  error(ex: Exchange, status: number, type: string, opts?: { code?: string; requirement?: string }): Exchange;
  /** The JSON body parses with the schema (unknown fields tolerated). Returns the parsed value. */
  schema<T>(ex: Exchange, schema: ZodType<T>, requirement?: string): T;
  /** Deep-equal, with a message naming the property. */
  equal(actual: unknown, expected: unknown, message: string, opts?: { requirement?: string; exchange?: Exchange }): void;
  /** A condition that must hold. */
  that(cond: unknown, message: string, opts?: { requirement?: string; expected?: unknown; actual?: unknown; exchange?: Exchange }): asserts cond;
}

/**
 * Network faults for chaos checks (Toxiproxy). Present only in chaos runs;
 * toxics a check adds are removed when it ends.
 */
export interface ChaosKit {
  readonly toxiproxy: Toxiproxy;
  /** The proxy between the target's webhook sender and the receiver for this partner; the partner's webhook_url points at it. */
  webhookProxy(partnerName: string): Promise<Proxy>;
  /** A client for the actor that reaches the target API through a fresh proxy of this check's own. */
  throughProxy(actor: GateActor | PoolsActor, service: 'gate' | 'pools'): Promise<{ client: ApiClient; proxy: Proxy }>;
}

export interface CheckContext {
  readonly profile: Profile;
  readonly depth: 'quick' | 'full';
  readonly signal: AbortSignal;
  gate: {
    /** A sandbox partner (the least busy of those the profile offers). Same actor for repeated calls in one check. */
    partner(): GateActor;
    /** A partner other than partner(): another tenant. */
    other(): GateActor;
    /** Partners by capability. */
    embed(): GateActor; // publishableKey + allowedOrigins
    rails(): GateActor;
    noRails(): GateActor;
    kycTrusted(): GateActor;
    /**
     * A partner with a webhook secret; its webhook_url already points at the receiver.
     * exclusive: no other check uses the partner while this one runs (receiver programmes, toxics).
     */
    webhooks(also?: { kycTrusted?: boolean; embed?: boolean; exclusive?: boolean }): Promise<GateActor>;
    /** A client on the sandbox base with an arbitrary credential (revoked, live, malformed). */
    rawClient(): ApiClient;
    /** A client on the production base (role gate.production). */
    productionClient(): ApiClient;
  };
  pools: {
    partner(): PoolsActor; // funded
    /** A funded partner no other check uses while this one runs (exact balance and ledger accounting). */
    exclusive(): Promise<PoolsActor>;
    other(): PoolsActor;
    byState(state: PoolsPartner['state']): PoolsActor;
    offRamp(): PoolsActor;
    noOffRamp(): PoolsActor;
    balanceGateOff(): PoolsActor;
    velocityCapped(): PoolsActor;
    /** A funded partner whose webhooks reach the receiver; exclusive as for gate.webhooks. */
    webhooks(opts?: { exclusive?: boolean }): Promise<PoolsActor>;
    rawClient(): ApiClient;
    /** A client on the pools production base (role pools.production). */
    productionClient(): ApiClient;
  };
  /** Run a profile trigger as the given actor. Fails the check (not skip) when the trigger errors. */
  trigger(
    service: 'gate' | 'pools',
    name: string,
    vars: Record<string, string>,
    actor?: GateActor | PoolsActor,
  ): Promise<TriggerResult>;
  /** The shared webhook receiver. */
  readonly receiver: WebhookReceiver;
  /** Wait for an event delivered to `partnerName` matching `match`. Fails the check on timeout. */
  waitForEvent(partnerName: string, match: (e: ReceivedEvent) => boolean, timeoutMs: number, what: string): Promise<ReceivedEvent>;
  readonly expect: Expectations;
  /** Record an observation: "not shown" behaviour, or which documented reading the target chose. */
  observe(topic: string, value: unknown, note?: string): void;
  /** Sleep with a labelled progress entry (TTL waits, rate windows). */
  sleep(ms: number, label: string): Promise<void>;
  /** Stop the check as skipped, with a reason. */
  skip(reason: string): never;
  /** Toxiproxy, in chaos runs only (undefined otherwise: chaos checks skip with a reason). */
  readonly chaos?: ChaosKit;
}
