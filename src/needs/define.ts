// A need is what testing a rule requires from the target (Playwright's
// fixtures): a partner of some kind, a second tenant, a trigger, a webhook
// receiver wired to a partner, Toxiproxy. Each need is defined once, in its own
// file under src/needs/<area>/, and says when a profile provides it, the skip
// reason when it does not (naming the profile field to add), how to set it up
// for a check and how to tear it down. The runner provides what a check
// declares, or skips the check with the first missing need's reason.
import type { Proxy, Toxiproxy } from 'toxiproxy-node-client';
import type { ApiClient } from '../client/types.js';
import type { Pacer } from '../client/pacer.js';
import type { RequirementId } from '../model/catalogue/define.js';
import type { NeedName, NeedRegistry } from '../model/needs.js';
import type { GatePartner, PoolsPartner, Profile } from '../profile/schema.js';
import type { Observation } from '../report/results.js';
import type { PartnerPool } from '../runner/partners.js';
import type { Progress } from '../runner/progress.js';
import type { Budget } from '../runner/budget.js';
import type { ReceivedEvent, ReceiverBehaviour, ReceiverFault, WebhookReceiver } from '../webhooks/types.js';

export type Service = 'gate' | 'pools';

export interface GateActor {
  partner: GatePartner;
  /** Sandbox client authenticated with the partner's test secret key (publishable via auth: 'publishable'). */
  client: ApiClient;
}

export interface PoolsActor {
  partner: PoolsPartner;
  client: ApiClient;
}

/** The receiver's view of one partner's webhooks (keyed by service and partner, never by name alone). */
export interface PartnerHooks {
  /** The receiver channel, `gate:<name>` or `pools:<name>`. */
  readonly channel: string;
  /** The URL the partner's webhooks were pointed at. */
  readonly url: string;
  /** Resolve with the first attempt (past or future) matching `match`; fails the check after timeoutMs of waiting on the target. */
  waitFor(match: (e: ReceivedEvent) => boolean, timeoutMs: number, what: string, requirement: RequirementId): Promise<ReceivedEvent>;
  attempts(): ReceivedEvent[];
  events(): ReceivedEvent[];
  program(answers: ReceiverBehaviour[], match?: (e: { eventId?: string; eventType?: string }) => boolean): void;
  setDefault(behaviour: ReceiverBehaviour): void;
}

export interface GateWebhookActor extends GateActor {
  hooks: PartnerHooks;
}

export interface PoolsWebhookActor extends PoolsActor {
  hooks: PartnerHooks;
}

export interface TriggerResult {
  exchange: import('../client/types.js').Exchange;
  /** Values named by the template's `extract`. */
  values: Record<string, unknown>;
}

/**
 * Network faults for chaos checks. On the webhook path they stand where the target's deliveries really
 * arrive: a Toxiproxy proxy in front of the receiver when the target reaches this machine's loopback, the
 * receiver itself when it reaches rampart only through webhooks.publicUrl. On the API path, a Toxiproxy proxy
 * per check (its upstream may be a remote host). Faults a check stages are lifted when it ends.
 */
export interface ChaosKit {
  readonly toxiproxy: Toxiproxy;
  /** Stage a fault on every delivery attempt to this partner's channel until removed (or the check ends). */
  webhookFault(hooks: PartnerHooks, fault: ReceiverFault): Promise<{ remove(): Promise<void> }>;
  /** Where webhook faults are staged: 'toxiproxy' (a proxy in front of the receiver) or 'receiver' (through the public URL). */
  readonly webhookFaultsBy: 'toxiproxy' | 'receiver';
  /** A client for the actor that reaches the target API through a fresh proxy of this check's own. */
  throughProxy(actor: GateActor | PoolsActor, service: Service): Promise<{ client: ApiClient; proxy: Proxy }>;
}

/** What the run shares with every need (one per run). */
export interface RunResources {
  profile: Profile;
  depth: 'quick' | 'full';
  pacer: Pacer;
  gatePartners: PartnerPool<GatePartner>;
  poolsPartners: PartnerPool<PoolsPartner>;
  receiver: WebhookReceiver;
  progress: Progress;
  observations: Observation[];
  /** The targets' clocks (every client of a service feeds and reads its own). */
  clocks: import('../client/targetClock.js').TargetClocks;
  /** Run-scoped values (shared objects, wired webhooks), by key. */
  cache: Map<string, Promise<unknown>>;
  /** Objects a check left for later checks to take as they are (each to one taker), by key. */
  offers: Map<string, unknown[]>;
  /** Requests sent so far per partner name (late checks go where state has built up). */
  activity: Map<string, number>;
  /** Where a partner's webhooks must go (default: straight to the receiver; chaos runs: through a proxy). */
  webhookUrlFor?: (channel: string) => Promise<string>;
  /** Present in chaos runs with Toxiproxy up. */
  chaos?: ChaosRunKit;
  /** Why chaos is unavailable in this run (no Toxiproxy, not a chaos run). */
  chaosMissing?: string;
}

export interface ChaosRunKit {
  kitFor(env: NeedEnv): { kit: ChaosKit; cleanup(): Promise<void> };
}

/** What a need's setup gets: the run's resources and the check's own state. */
export interface NeedEnv {
  readonly run: RunResources;
  readonly profile: Profile;
  readonly check: { name: string; file: string; service: Service; late?: boolean };
  readonly budget: Budget;
  readonly signal: AbortSignal;
  /** A client bound to this check: every exchange is recorded for the report; pacing and waits are accounted. */
  client(service: Service, baseUrl: string, label: string, secretKey?: string, publishableKey?: string): ApiClient;
  /** Another need of the same check (provided once per check). */
  get<N extends NeedName>(name: N): Promise<NeedRegistry[N]>;
  /** Gate actors this check holds already (a later need reuses one that fits, unless it must be distinct). */
  readonly gateActors: Map<string, GateActor>;
  readonly poolsActors: Map<string, PoolsActor>;
  /** Register a teardown step, run when the check ends (last registered first). */
  onRelease(fn: () => void | Promise<void>): void;
  /** Record an observation under the check's name. */
  observe(topic: string, value: unknown, note?: string): void;
  /** Wait on the target for what the specs make it take (a lifetime, a webhook and its schedule): counted in the budget and in the run's lower bound. */
  documentedWait<T>(what: string, p: Promise<T>): Promise<T>;
  /** The check now holds this partner ("gate:name", "pools:name"), alone or shared with other checks: the run's lower bound adds up the waits of those that held it alone. */
  held(partner: string, alone: boolean): void;
}

export interface NeedDef<N extends NeedName = NeedName> {
  name: N;
  /** One line: what the need is. */
  description: string;
  /** The need holds a partner alone: checks needing it are started first, while they are short, so they never wait behind long shared checks. */
  exclusive?: boolean;
  /** Needs this one builds on (provided first, and their absence is its absence). */
  requires?: readonly NeedName[];
  /** null when the profile provides it (at this depth); otherwise why not, naming the profile field to add. */
  missing(profile: Profile, at: { depth: 'quick' | 'full' }): string | null;
  /** Provide the value for one check. Throw CheckSkipped (env skip helpers) when it cannot be had now. */
  setup(env: NeedEnv): Promise<NeedRegistry[N]> | NeedRegistry[N];
}

export function defineNeed<N extends NeedName>(def: NeedDef<N>): NeedDef<N> {
  return def;
}
