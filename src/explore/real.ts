// The "real system" of an explored sequence: the target and the oracle side by side, each reached over HTTP with
// the same partner's credentials, every step's exchanges on both sides kept for the finding, and the request
// budget charged for what the target was sent (the oracle on loopback is free).
import type { ApiClient, Exchange } from '../client/types.js';
import type { RequirementId } from '../model/catalogue/index.js';
import type { RequestTemplate } from '../profile/schema.js';
import { stopOf } from './stop.js';
import { sendWith } from '../needs/support/triggers.js';
import type { Side } from './model.js';

/** One side's clients: the explore partner's keys (Gate: each key its own rate-limit client, taken in turn). */
export interface SideClients {
  gate?: ApiClient[];
  /** The partner's publishable key with one of its allowed origins (POST /embed/bootstrap). */
  publishable?: { client: ApiClient; origin: string };
  pools?: ApiClient;
  /** The side's own sandbox triggers (the target's from its profile, the oracle's the embedded reference's). */
  triggers: { gate: Partial<Record<string, RequestTemplate>>; pools: Partial<Record<string, RequestTemplate>> };
}

export interface Step {
  /** 1-based position in the sequence. */
  n: number;
  label: string;
  /** The command's variant (its class and parameters, not the object it picked): what the run's coverage counts. */
  variant: string;
  exchanges: Record<Side, Exchange[]>;
}

/**
 * The share of the budget new sequences may spend: the rest is kept for shrinking a divergence and its re-run.
 * Measured over 50 findings: shrinking a divergence to its shortest sequence and re-running it took 7 to 99 requests
 * (median 28). A quarter of 400 leaves room for a divergence found at the end of the search; at 15 % one found at
 * request 324 of 400 could only be shrunk to 8 steps.
 */
export const SEARCH_SHARE = 0.75;

/**
 * Requests the exploration may send the target: a search share for new sequences; after the first divergence, the
 * confirming re-run's requests held back first and shrinking given the rest, so a finding is never dropped for a
 * re-run that shrinking left too little to reach its step.
 */
export class Budget {
  spent = 0;
  /** After the first divergence: the requests held back for its confirming re-run. */
  private rerun?: number;
  constructor(
    readonly total: number,
    readonly searchShare = SEARCH_SHARE,
  ) {}
  /** After the first divergence, the rest of the budget is shrinking's (its re-run's held back). */
  get shrinking(): boolean {
    return this.rerun !== undefined;
  }
  private get limit(): number {
    return this.rerun !== undefined ? this.total - this.rerun : Math.floor(this.total * this.searchShare);
  }
  /** A new sequence may start. */
  canStart(): boolean {
    return this.spent < this.limit;
  }
  /** One more step of up to `cost` requests fits. */
  affords(cost: number): boolean {
    return this.spent + cost <= this.limit;
  }
  charge(n = 1): void {
    this.spent += n;
  }
  /**
   * The first divergence showed after its sequence sent `cost` requests: the re-run's are held back before shrinking
   * starts (a shrunk sequence costs no more than the one it came from, and a step's most on top), as far as the budget
   * has them; shrinking spends only what is left beside them.
   */
  holdRerun(cost: number): void {
    this.rerun = Math.max(0, Math.min(cost + MAX_STEP_REQUESTS, this.total - this.spent));
  }
  /** What the confirming re-run may spend: everything left (the held requests at least), every one of it. */
  rerunBudget(): Budget {
    return new Budget(Math.max(0, this.total - this.spent), 1);
  }
}

/** Most target requests one step may send (a list walk is bounded by it). */
export const MAX_STEP_REQUESTS = 6;

/** What the profile says the sequence's requests carry: the bodies a partner sends, the pool it trades on. */
export interface ExploreContext {
  sessionBody: Record<string, unknown>;
  customerTemplate?: Record<string, unknown>;
  pools?: {
    pool: string;
    quote: Record<string, unknown>;
    ttlSeconds: number;
    ttlToleranceSeconds: number;
    /** The oracle's networks for the pool, read once (the quote body's destNetwork is the target's to allow). */
    oracleNetworks?: string[];
  };
  /** A per-exploration tag: every email, external id and metadata of the sequence carries it. */
  tag: string;
  /** Per list and side, the last item of the deepest page the exploration read (lists.ts): a later walk goes on from there. */
  frontiers: Map<string, Partial<Record<Side, string>>>;
  /**
   * Per list, the objects the exploration made that the list still shows, oldest first (each side's id): a list
   * ordered by creation holds a sequence's own objects after those an earlier sequence made (lists.ts).
   */
  made: Map<string, Record<Side, string>[]>;
}

export class Real {
  readonly steps: Step[] = [];
  /** Requests this sequence sent the target. */
  requests = 0;
  /** The rules the sequence's comparisons judged (each held, or the sequence would have parted on it). */
  readonly judgedRules = new Set<RequirementId>();
  private readonly stables: Record<Side, Map<string, unknown>> = { target: new Map(), oracle: new Map() };
  private turn = 0;
  constructor(
    readonly sides: Record<Side, SideClients>,
    readonly budget: Budget,
    readonly context: ExploreContext,
    readonly signal?: AbortSignal,
    /** Told of every exchange on either side (the run's HAR, its spent bound). */
    private readonly onExchange?: (side: Side, ex: Exchange) => void,
  ) {}

  begin(label: string, variant: string): Step {
    const step = { n: this.steps.length + 1, label, variant, exchanges: { target: [], oracle: [] } };
    this.steps.push(step);
    return step;
  }

  private get current(): Step {
    const s = this.steps.at(-1);
    if (!s) throw new Error('a request outside a step');
    return s;
  }

  /** The Gate client of a side for the next request: the partner's keys in turn, so each key's windows share the load. */
  gate(side: Side): ApiClient {
    const keys = this.sides[side].gate;
    if (!keys?.length) throw new Error(`no Gate partner on the ${side}`);
    return keys[this.turn % keys.length]!;
  }

  pools(side: Side): ApiClient {
    const c = this.sides[side].pools;
    if (!c) throw new Error(`no pools partner on the ${side}`);
    return c;
  }

  /** Send on the target, then the same on the oracle; both answers recorded in the step. */
  async both(send: (side: Side) => Promise<Exchange>): Promise<Record<Side, Exchange>> {
    this.turn++;
    const target = await this.onTarget(() => send('target'));
    this.current.exchanges.target.push(target);
    this.onExchange?.('target', target);
    const oracle = await send('oracle');
    this.current.exchanges.oracle.push(oracle);
    this.onExchange?.('oracle', oracle);
    return { target, oracle };
  }

  /** One side alone (a list walk whose pages differ in number on each side): recorded, charged when it is the target. */
  async one(side: Side, send: () => Promise<Exchange>): Promise<Exchange> {
    const ex = side === 'target' ? await this.onTarget(send) : await send();
    this.current.exchanges[side].push(ex);
    this.onExchange?.(side, ex);
    return ex;
  }

  /**
   * A request of the target, charged: one that got no answer after the client's retries (or met the run's stop, a
   * full hour window, a route refusing everything) stops the exploration as it stops every kind.
   */
  private async onTarget(send: () => Promise<Exchange>): Promise<Exchange> {
    if (this.signal?.aborted) throw stopOf(undefined, this.signal);
    try {
      const ex = await send();
      this.budget.charge();
      this.requests++;
      return ex;
    } catch (e) {
      throw stopOf(e, this.signal) ?? e;
    }
  }

  /** A rule one of the sequence's comparisons judged. */
  judged(id: RequirementId): void {
    this.judgedRules.add(id);
  }

  /** A sandbox trigger on one side with that side's own template; undefined when the side declares none. */
  async trigger(side: Side, service: 'gate' | 'pools', name: string, vars: Record<string, string>): Promise<Exchange | undefined> {
    const tpl = this.sides[side].triggers[service][name];
    if (!tpl) return undefined;
    const client = service === 'gate' ? this.gate(side) : this.pools(side);
    return this.one(side, async () => (await sendWith(client, tpl, vars)).exchange);
  }

  /** What the specs leave open and the target chose (a reading, a not-shown outcome): reported, never failed. */
  readonly observations: { topic: string; step: number; value: string }[] = [];
  observe(topic: string, value: string): void {
    this.observations.push({ topic, step: this.steps.length, value });
  }

  stableOf(side: Side, key: string): unknown {
    return this.stables[side].get(key);
  }

  remember(side: Side, key: string, value: unknown): void {
    this.stables[side].set(key, value);
  }
}
