// What every doctor step shares: paced clients (one Gate pacer for every key,
// as in a run), one way to send a request or a profile template that turns a
// transport failure into a line, the rows gathered so far, and a rotation that
// spreads the doctor's own traffic over the partners so no key carries much of it.
import { createApiClient } from '../client/http.js';
import { clientLimits } from '../client/limits.js';
import { Pacer } from '../client/pacer.js';
import { newTargetClocks } from '../client/targetClock.js';
import type { ApiClient, ApiRequest, Exchange } from '../client/types.js';
import { TransportError } from '../client/types.js';
import { sendSequence, TemplateError, type ClientFor } from '../needs/support/triggers.js';
import type { TriggerResult } from '../needs/define.js';
import type { GatePartner, PoolsPartner, Profile, RequestTemplate } from '../profile/schema.js';

export type RowStatus = 'ok' | 'missing' | 'broken' | 'not checked';
export type RowArea = 'base URL' | 'key' | 'trigger' | 'webhooks' | 'need';

export interface DoctorRow {
  area: RowArea;
  name: string;
  status: RowStatus;
  detail: string;
  /** Checks this role or trigger unlocks (that could not run without it). */
  unlocks: number;
  /** What to add or fix, when it is not ok. */
  fix?: string;
}

/** A row as a step makes it: how the profile reads without the element (or with it, for a missing one) gives its unlocks. */
export interface RowDraft extends Omit<DoctorRow, 'unlocks'> {
  /** The profile without this element: checks runnable now but not then are what it unlocks (and a broken element takes them away). */
  without?: (p: Profile) => Profile;
  /** The profile with a missing element declared: checks runnable then but not now are what it would unlock. */
  with?: (p: Profile) => Profile;
}

export interface DoctorOptions {
  depth?: 'quick' | 'full';
  /** How long to wait for the target's webhook.test delivery (default 30 s). */
  receiverWaitMs?: number;
  /** Each row as it is made. */
  log?: (line: string) => void;
  /** Every answered request (tests count them per key). */
  onExchange?: (ex: Exchange) => void;
  /** Also present the keys reserved for load (off by default: the load scenarios want their rate windows empty). */
  includeLoadKeys?: boolean;
  /** A Gate pacer that already counts earlier traffic of these keys (a run, or another doctor, in this process). */
  pacer?: Pacer;
}

export const ok2xx = (ex: Exchange) => ex.status >= 200 && ex.status < 300;

/** The status a template says means success, or any 2xx. */
export const templateOk = (tpl: RequestTemplate, ex: Exchange) => (tpl.expectStatus ? tpl.expectStatus.includes(ex.status) : ok2xx(ex));

/** A response in one line for a row: status and the start of the body. */
export const answered = (ex: Exchange) => `answered ${ex.status}${ex.bodyText ? ` ${ex.bodyText.replace(/\s+/g, ' ').slice(0, 120)}` : ''}`;

export class DoctorContext {
  readonly depth: 'quick' | 'full';
  readonly rows: RowDraft[] = [];
  /** Every Gate key is paced to the documented windows (scaled as the profile declares), as in a run. */
  private readonly gatePacer: Pacer;
  /** Pools request-rate limits are not shown: only an announced Retry-After holds a key. */
  private readonly poolsPacer = new Pacer({ paceWindows: false });
  /** The targets' clocks and round trips, from every answer the doctor gets. */
  readonly clocks = newTargetClocks();
  /** Requests sent per key (the rotation spreads the doctor's own traffic). */
  private readonly sent = new Map<string, number>();

  constructor(
    readonly profile: Profile,
    readonly opts: DoctorOptions,
  ) {
    this.depth = opts.depth ?? 'quick';
    this.gatePacer = opts.pacer ?? new Pacer({ windowScale: profile.timing.rateWindowScale });
  }

  client(service: 'gate' | 'pools', baseUrl: string, label: string, secretKey?: string, publishableKey?: string): ApiClient {
    return createApiClient({
      service,
      baseUrl,
      label: `doctor ${label}`,
      secretKey,
      publishableKey,
      pacer: service === 'gate' ? this.gatePacer : this.poolsPacer,
      ...clientLimits(this.profile.harness),
      retry: { maxRetries: 1, baseDelayMs: 300, maxDelayMs: 1_000 },
      clock: this.clocks[service],
      onExchange: (ex) => {
        const key = /^Bearer\s+(\S+)/.exec(ex.request.headers['authorization'] ?? '')?.[1];
        if (key) this.sent.set(key, (this.sent.get(key) ?? 0) + 1);
        this.opts.onExchange?.(ex);
      },
    });
  }

  gateClient(p: GatePartner, label = p.name): ApiClient {
    return this.client('gate', this.profile.gate.baseUrls.sandbox, label, p.secretKey, p.publishableKey);
  }

  poolsClient(p: PoolsPartner): ApiClient {
    return this.client('pools', this.profile.pools!.baseUrls.sandbox, p.name, p.secretKey, p.publishableKey);
  }

  /** One request, never retried: the answer, or the transport failure as a line. */
  async call(c: ApiClient, req: ApiRequest): Promise<Exchange | string> {
    try {
      return await c.request({ retry: false, ...req });
    } catch (e) {
      return e instanceof TransportError ? e.message : `${req.method} ${req.path}: ${(e as Error).message}`;
    }
  }

  /**
   * Send a profile template as `partner`, as a run would: each request (its arming ones first) to its base
   * (`base`, default the service it is declared under) or its absolute URL, with the partner's key; a Gate base is
   * paced. The values it maps are sent in the sandbox's words.
   */
  async send(
    service: 'gate' | 'pools',
    tpl: RequestTemplate,
    partner: GatePartner | PoolsPartner,
    vars: Record<string, string>,
    opts: { retry?: false } = {},
  ): Promise<TriggerResult | string> {
    const client = (base: 'gate' | 'pools', url: string) => this.client(base, url, `${partner.name} (trigger)`, partner.secretKey, partner.publishableKey);
    const to: ClientFor = (step, path) => {
      const base = step.base ?? service;
      if (/^https?:\/\//i.test(path)) {
        const u = new URL(path);
        return { client: client(base, u.origin), path: `${u.pathname}${u.search}` };
      }
      const baseUrl = base === 'gate' ? this.profile.gate.baseUrls.sandbox : this.profile.pools?.baseUrls.sandbox;
      if (!baseUrl) throw new TemplateError(`the template names base ${base}, but the profile has no ${base} section`);
      return { client: client(base, baseUrl), path };
    };
    try {
      return await sendSequence(to, tpl, { partner: partner.name, ...vars }, opts);
    } catch (e) {
      if (e instanceof TransportError || e instanceof TemplateError) return e.message;
      return (e as Error).message;
    }
  }

  /**
   * The partner (of those `fits`) whose keys carry the least of the doctor's own traffic: dry-runs
   * are spread, so no key's windows fill. Partners reserved for load are used only when nothing else fits.
   */
  leastUsed<P extends { name: string; secretKey: string; reservedFor?: string }>(partners: readonly P[], fits: (p: P) => boolean = () => true): P | undefined {
    const usable = partners.filter((p) => fits(p) && p.reservedFor !== 'load');
    let best: P | undefined;
    for (const p of usable) if (!best || (this.sent.get(p.secretKey) ?? 0) < (this.sent.get(best.secretKey) ?? 0)) best = p;
    return best;
  }

  /** Requests the doctor sent with this key so far. */
  sentWith(key: string): number {
    return this.sent.get(key) ?? 0;
  }

  row(r: RowDraft): void {
    this.rows.push(r);
    const icon = r.status === 'ok' ? '✓' : r.status === 'missing' ? '-' : r.status === 'broken' ? '✗' : '·';
    this.opts.log?.(`${icon} ${r.area}: ${r.name} — ${r.detail}`);
  }
}
