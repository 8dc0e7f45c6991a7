// Builds the CheckContext a check runs with: partners leased from the
// profile, clients that record every exchange for the report, triggers,
// webhooks, observations, labelled waits.
import type { Pacer } from '../client/pacer.js';
import { createApiClient } from '../client/http.js';
import type { ApiClient, Exchange } from '../client/types.js';
import type { GatePartner, PoolsPartner, Profile } from '../profile/schema.js';
import type { Observation } from '../report/results.js';
import type { ReceivedEvent, WebhookReceiver } from '../webhooks/types.js';
import type { CheckContext, CheckDef, GateActor, PoolsActor } from './check.js';
import { CheckFailed, CheckSkipped, expectations } from './expect.js';
import type { PartnerPool } from './partners.js';
import type { Progress } from './progress.js';
import { sendTemplate } from './triggers.js';

export interface RunShared {
  profile: Profile;
  depth: 'quick' | 'full';
  pacer: Pacer;
  gatePartners: PartnerPool<GatePartner>;
  poolsPartners: PartnerPool<PoolsPartner>;
  receiver: WebhookReceiver;
  progress: Progress;
  observations: Observation[];
  /** Partner names whose webhook_url points at the receiver, by service. */
  webhookReady: Map<string, Promise<void>>;
  timeoutMs: number;
  /** What the run spent: every request (by client label) and every mandatory wait, for bench/conformance-budget. */
  stats: RunStats;
  /** Where a partner's webhooks must go (default: straight to the receiver; chaos runs: through a proxy). */
  webhookUrlFor?: (partnerName: string) => Promise<string>;
  /** Chaos runs: builds the per-check kit and cleans it up. */
  chaos?: {
    kitFor(check: CheckDef, clientFor: (svc: 'gate' | 'pools', baseUrl: string, label: string, secretKey?: string, publishableKey?: string) => ApiClient): {
      kit: import('./check.js').ChaosKit;
      cleanup(): Promise<void>;
    };
  };
}

export interface RunStats {
  requests: { service: 'gate' | 'pools'; label: string; method: string; path: string; at: number; check: string }[];
  sleeps: { check: string; ms: number; label: string }[];
}

/** The request path below the base URL's /v1, without the query. */
function pathBelowBase(url: string, baseUrl: string): string {
  try {
    const p = new URL(url).pathname;
    const b = new URL(baseUrl).pathname.replace(/\/$/, '');
    return p.startsWith(b) ? p.slice(b.length) || '/' : p;
  } catch {
    return url;
  }
}

export interface CheckRunState {
  ctx: CheckContext;
  exchanges: Exchange[];
  retries: { what: string; attempt: number; delayMs: number }[];
  release(): void | Promise<void>;
}

/** How long a check waits for a partner it must hold alone. */
const EXCLUSIVE_WAIT_MS = 120_000;
const CLIENT_RETRY = { maxRetries: 3, baseDelayMs: 300, maxDelayMs: 3_000 };

export function createCheckContext(shared: RunShared, check: CheckDef, service: 'gate' | 'pools', signal: AbortSignal): CheckRunState {
  const { profile } = shared;
  const exchanges: Exchange[] = [];
  const retries: CheckRunState['retries'] = [];
  const leasedGate: string[] = [];
  const leasedPools: string[] = [];
  const gateActors = new Map<string, GateActor>();
  const poolsActors = new Map<string, PoolsActor>();

  const client = (svc: 'gate' | 'pools', baseUrl: string, label: string, secretKey?: string, publishableKey?: string): ApiClient =>
    createApiClient({
      service: svc,
      baseUrl,
      label,
      secretKey,
      publishableKey,
      pacer: svc === 'gate' ? shared.pacer : undefined,
      retry: CLIENT_RETRY,
      onExchange: (ex) => {
        exchanges.push(ex);
        shared.stats.requests.push({ service: svc, label, method: ex.request.method, path: pathBelowBase(ex.request.url, baseUrl), at: ex.startedAt, check: check.name });
      },
      onRetry: (info) => {
        retries.push({ what: info.error ? info.error.message : `status ${info.exchange?.status}`, attempt: info.attempt, delayMs: info.delayMs });
        shared.observations.push({
          topic: 'client-retry',
          service: svc,
          check: check.name,
          value: { attempt: info.attempt, status: info.exchange?.status, error: info.error?.kind, delayMs: Math.round(info.delayMs) },
          note: 'an unexpected 429, 5xx or network error was retried with the same Idempotency-Key, as the spec advises',
        });
      },
    });

  const gateActor = (p: GatePartner): GateActor => {
    let a = gateActors.get(p.name);
    if (!a) {
      a = { partner: p, client: client('gate', profile.gate.baseUrls.sandbox, p.name, p.secretKey, p.publishableKey) };
      gateActors.set(p.name, a);
    }
    return a;
  };
  const poolsActor = (p: PoolsPartner): PoolsActor => {
    let a = poolsActors.get(p.name);
    if (!a) {
      a = { partner: p, client: client('pools', profile.pools!.baseUrls.sandbox, p.name, p.secretKey, p.publishableKey) };
      poolsActors.set(p.name, a);
    }
    return a;
  };

  const leaseGate = (what: string, filter: (p: GatePartner) => boolean, opts: { distinct?: boolean; prefer?: (p: GatePartner) => boolean } = {}): GateActor => {
    const existing = [...gateActors.values()].find((a) => filter(a.partner) && !opts.distinct);
    if (existing) return existing;
    const p = shared.gatePartners.lease(filter, new Set([...gateActors.keys()]), opts.prefer);
    if (!p) throw new CheckSkipped(`the profile has no ${what} gate partner available for this check`);
    leasedGate.push(p.name);
    return gateActor(p);
  };
  const leasePools = (what: string, filter: (p: PoolsPartner) => boolean, distinct = false): PoolsActor => {
    if (!profile.pools) throw new CheckSkipped('the profile has no pools section');
    const existing = [...poolsActors.values()].find((a) => filter(a.partner) && !distinct);
    if (existing) return existing;
    const p = shared.poolsPartners.lease(filter, new Set([...poolsActors.keys()]));
    if (!p) throw new CheckSkipped(`the profile has no ${what} pools partner available for this check`);
    leasedPools.push(p.name);
    return poolsActor(p);
  };

  /**
   * A partner no other check holds, kept from them until this check ends: chaos
   * checks program the receiver's answers and toxics for a whole partner.
   * Waits (bounded) for one to come free; skips when none does.
   */
  async function leaseExclusive<P extends { name: string; secretKey: string }>(
    pool: PartnerPool<P>,
    what: string,
    filter: (p: P) => boolean,
    exclude: Set<string>,
    leased: string[],
  ): Promise<P> {
    if (!pool.any(filter)) throw new CheckSkipped(`the profile has no ${what} partner`);
    const deadline = Date.now() + EXCLUSIVE_WAIT_MS;
    for (;;) {
      const p = pool.lease(filter, exclude, undefined, { exclusive: true });
      if (p) {
        leased.push(p.name);
        return p;
      }
      if (Date.now() > deadline || signal.aborted)
        throw new CheckSkipped(`no ${what} partner came free for this check's exclusive use within ${EXCLUSIVE_WAIT_MS / 1000} s — add partners to the profile`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  const fundedPools = (p: PoolsPartner) => p.state === 'funded' && !p.velocityCap && p.balanceGate;

  const notWebhooked = (p: { name: string }) => !shared.webhookReady.has(`gate:${p.name}`);

  async function ensureWebhook(svc: 'gate' | 'pools', actor: GateActor | PoolsActor): Promise<void> {
    const key = `${svc}:${actor.partner.name}`;
    let ready = shared.webhookReady.get(key);
    if (!ready) {
      const secret = actor.partner.webhookSecret;
      if (!secret) throw new CheckSkipped(`partner ${actor.partner.name} has no webhookSecret in the profile`);
      shared.receiver.setSecrets(actor.partner.name, [secret]);
      const tpl = svc === 'gate' ? profile.gate.triggers.configureWebhook : profile.pools?.triggers.configureWebhook;
      if (!tpl) throw new CheckSkipped(`${svc}.triggers.configureWebhook is missing from the profile`);
      const url = shared.webhookUrlFor ? shared.webhookUrlFor(actor.partner.name) : Promise.resolve(shared.receiver.urlFor(actor.partner.name));
      ready = url.then((webhookUrl) => sendTemplate(actor.client, tpl, { webhookUrl, partner: actor.partner.name })).then(({ exchange }) => {
        const ok = tpl.expectStatus ? tpl.expectStatus.includes(exchange.status) : exchange.status >= 200 && exchange.status < 300;
        if (!ok) throw new Error(`configureWebhook for ${actor.partner.name} answered ${exchange.status}`);
      });
      shared.webhookReady.set(key, ready);
      ready.catch(() => shared.webhookReady.delete(key));
    }
    try {
      await ready;
    } catch (e) {
      throw new CheckFailed(`could not point ${svc} webhooks at the receiver: ${(e as Error).message}`, { requirement: undefined });
    }
  }

  const chaos = shared.chaos?.kitFor(check, client);

  const ctx: CheckContext = {
    chaos: chaos?.kit,
    profile,
    depth: shared.depth,
    signal,
    gate: {
      partner: () => leaseGate('sandbox', () => true, { prefer: notWebhooked }),
      other: () => {
        if (gateActors.size === 0) ctx.gate.partner();
        return leaseGate('second (another tenant)', () => true, { distinct: true, prefer: notWebhooked });
      },
      embed: () => leaseGate('embed-capable (publishableKey + allowedOrigins)', (p) => !!p.publishableKey && !!p.allowedOrigins?.length),
      rails: () => leaseGate('rail-entitled', (p) => p.rails === true),
      noRails: () => leaseGate('non-rail', (p) => p.rails === false),
      kycTrusted: () => leaseGate('KYC-trusted', (p) => p.kycTrusted === true),
      webhooks: async (also) => {
        const extra = (p: GatePartner) =>
          (!also?.kycTrusted || p.kycTrusted === true) && (!also?.embed || (!!p.publishableKey && !!p.allowedOrigins?.length));
        const what = ['webhook-capable', also?.kycTrusted ? 'KYC-trusted' : '', also?.embed ? 'embed-capable' : ''].filter(Boolean).join(', ');
        const filter = (p: GatePartner) => !!p.webhookSecret && extra(p);
        const actor = also?.exclusive
          ? gateActor(await leaseExclusive(shared.gatePartners, `${what} gate`, filter, new Set(gateActors.keys()), leasedGate))
          : leaseGate(what, filter, {
              prefer: (p) => shared.webhookReady.has(`gate:${p.name}`) || shared.gatePartners.leased(p.name) === 0,
            });
        await ensureWebhook('gate', actor);
        return actor;
      },
      rawClient: () => client('gate', profile.gate.baseUrls.sandbox, 'raw'),
      productionClient: () => {
        const url = profile.gate.baseUrls.production;
        if (!url) throw new CheckSkipped('the profile has no gate.baseUrls.production');
        return client('gate', url, 'production');
      },
    },
    pools: {
      partner: () => leasePools('funded', fundedPools),
      exclusive: async () => {
        if (!profile.pools) throw new CheckSkipped('the profile has no pools section');
        return poolsActor(await leaseExclusive(shared.poolsPartners, 'funded pools', fundedPools, new Set(poolsActors.keys()), leasedPools));
      },
      other: () => {
        if (poolsActors.size === 0) ctx.pools.partner();
        return leasePools('second funded', (p) => p.state === 'funded' && !p.velocityCap && p.balanceGate, true);
      },
      byState: (state) => leasePools(state, (p) => p.state === state),
      offRamp: () => leasePools('off_ramp-enabled', (p) => p.state === 'funded' && p.offRamp),
      noOffRamp: () => leasePools('funded without off_ramp', (p) => p.state === 'funded' && !p.offRamp && !p.velocityCap),
      balanceGateOff: () => leasePools('balance-gate-off', (p) => p.balanceGate === false),
      velocityCapped: () => leasePools('velocity-capped', (p) => p.state === 'funded' && !!p.velocityCap),
      webhooks: async (opts) => {
        const filter = (p: PoolsPartner) => p.state === 'funded' && !!p.webhookSecret && !p.velocityCap && p.balanceGate;
        if (opts?.exclusive && !profile.pools) throw new CheckSkipped('the profile has no pools section');
        const actor = opts?.exclusive
          ? poolsActor(await leaseExclusive(shared.poolsPartners, 'funded webhook-capable pools', filter, new Set(poolsActors.keys()), leasedPools))
          : leasePools('funded webhook-capable', filter);
        await ensureWebhook('pools', actor);
        return actor;
      },
      rawClient: () => {
        if (!profile.pools) throw new CheckSkipped('the profile has no pools section');
        return client('pools', profile.pools.baseUrls.sandbox, 'raw');
      },
      productionClient: () => {
        const url = profile.pools?.baseUrls.production;
        if (!url) throw new CheckSkipped('the profile has no pools.baseUrls.production');
        return client('pools', url, 'production');
      },
    },
    async trigger(svc, name, vars, actor) {
      const triggers: Record<string, unknown> = svc === 'gate' ? profile.gate.triggers : (profile.pools?.triggers ?? {});
      const tpl = triggers[name] as Parameters<typeof sendTemplate>[1] | undefined;
      if (!tpl || typeof tpl !== 'object' || !('method' in tpl)) throw new CheckSkipped(`${svc}.triggers.${name} is missing from the profile`);
      const who = actor ?? (svc === 'gate' ? ctx.gate.partner() : ctx.pools.partner());
      const c = tpl.base === 'pools' && svc === 'gate' ? ctx.pools.partner().client : who.client;
      const res = await sendTemplate(c, tpl, vars);
      const ok = tpl.expectStatus ? tpl.expectStatus.includes(res.exchange.status) : res.exchange.status >= 200 && res.exchange.status < 300;
      if (!ok) {
        throw new CheckFailed(`trigger ${svc}.${name} answered ${res.exchange.status}`, {
          expected: tpl.expectStatus?.join(' or ') ?? '2xx',
          actual: `${res.exchange.status} ${res.exchange.bodyText.slice(0, 300)}`,
          exchange: res.exchange,
        });
      }
      return res;
    },
    receiver: shared.receiver,
    async waitForEvent(partnerName: string, match: (e: ReceivedEvent) => boolean, timeoutMs: number, what: string) {
      const done = shared.progress.wait(`webhook ${what}`, timeoutMs);
      try {
        return await shared.receiver.waitFor(partnerName, match, timeoutMs);
      } catch {
        throw new CheckFailed(`no ${what} webhook reached the receiver for ${partnerName} within ${Math.round(timeoutMs / 1000)} s`, {
          expected: what,
          actual: `${shared.receiver.attempts(partnerName).length} attempt(s) received for this partner`,
        });
      } finally {
        done();
      }
    },
    expect: expectations,
    observe(topic, value, note) {
      shared.observations.push({ topic, service, check: check.name, value, note });
    },
    async sleep(ms, label) {
      shared.stats.sleeps.push({ check: check.name, ms, label });
      const done = shared.progress.wait(label, ms);
      try {
        await new Promise<void>((resolve, reject) => {
          const t = setTimeout(resolve, ms);
          signal.addEventListener(
            'abort',
            () => {
              clearTimeout(t);
              reject(new Error('aborted'));
            },
            { once: true },
          );
        });
      } finally {
        done();
      }
    },
    skip(reason: string): never {
      throw new CheckSkipped(reason);
    },
  };

  return {
    ctx,
    exchanges,
    retries,
    async release() {
      try {
        await chaos?.cleanup();
      } finally {
        for (const n of leasedGate) shared.gatePartners.release(n);
        for (const n of leasedPools) shared.poolsPartners.release(n);
      }
    },
  };
}
