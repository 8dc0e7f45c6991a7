// The two sides of an exploration, each from its own profile: the target's (as given), and the oracle's (the
// embedded reference the CLI started on loopback from a profile derived from the target's — same partners and
// keys, its own base URLs and sandbox triggers). The explore partner is picked from the kind's view of the
// target's profile; the oracle holds the same partner under the same name.
import { createApiClient } from '../client/http.js';
import { clientLimits } from '../client/limits.js';
import type { Pacer } from '../client/pacer.js';
import type { TargetClocks } from '../client/targetClock.js';
import type { ApiClient } from '../client/types.js';
import { POOLS_LIMITS } from '../model/limits.js';
import type { GatePartner, PoolsPartner, Profile } from '../profile/schema.js';
import type { Capabilities, Side } from './model.js';
import type { ExploreContext, SideClients } from './real.js';
import { exploreGatePartners, explorePoolsPartners, type LanePlan } from './budget.js';
import type { Lane } from './lanes.js';

export interface ExplorePartners {
  gate?: GatePartner;
  pools?: PoolsPartner;
}

/** The first lane's partners of each service (budget.ts lanesOf gives every lane): one that can bootstrap a widget, a funded one. */
export function explorePartners(view: Profile, service?: 'gate' | 'pools'): ExplorePartners {
  const gates = service === 'pools' ? [] : exploreGatePartners(view);
  const gate = gates.find((p) => p.publishableKey && p.allowedOrigins?.length) ?? gates[0];
  const pools = service === 'gate' ? undefined : explorePoolsPartners(view)[0];
  return { ...(gate ? { gate } : {}), ...(pools ? { pools } : {}) };
}

/** Why the profile gives explore no partner of a service, or no rails (each family it leaves out says so). */
function whyNot(target: Profile, partners: ExplorePartners): Capabilities['why'] {
  const why: Capabilities['why'] = {};
  if (!partners.gate)
    why.gate = target.gate.partners.length
      ? 'every Gate partner is kept unbranded (brandingUnset) for the checks that read the default branding: explore PATCHes branding'
      : 'the profile has no Gate partner';
  const pools = target.pools;
  if (!pools) why.pools = 'the profile has no pools section';
  else if (!pools.quote) why.pools = 'the profile gives no pools.quote (the body of a firm quote on its pool)';
  else if (!partners.pools)
    why.pools = pools.partners.some((p) => p.state === 'funded')
      ? 'the funded pools partner has a velocity cap (velocityCap): a trade of explore could be refused for traffic it cannot see; add a funded partner without one'
      : 'the profile has no funded pools partner';
  if (partners.gate && !partners.gate.rails) why.rails = `the Gate partner ${partners.gate.name} is not rail-entitled (rails)`;
  else if (!target.gate.triggers.createSignedQuote)
    why.rails = 'the profile declares no gate.triggers.createSignedQuote: no signed quote can be locked (POST /quotes is not shown)';
  return why;
}

export function capabilitiesOf(target: Profile, partners: ExplorePartners, service?: 'gate' | 'pools'): Capabilities {
  return {
    services: service ? [service] : target.pools ? ['gate', 'pools'] : ['gate'],
    why: whyNot(target, partners),
    gate: !!partners.gate,
    pools: !!partners.pools && !!target.pools?.quote,
    completeSession: !!target.gate.triggers.completeSession,
    expireSession: !!target.gate.triggers.expireSession,
    embed: !!(partners.gate?.publishableKey && partners.gate.allowedOrigins?.length),
    tradeOutcome: !!target.pools?.triggers?.tradeOutcome,
    poolsBalance: !!partners.pools?.balanceGate,
    // The default session lifetime is not shown: a profile that declares none is taken at the embedded's half hour.
    sessionLifetimeMs: (target.timing.sessionLifetimeSeconds ?? 1800) * 1000,
    quoteTtlMs: POOLS_LIMITS.quoteTtlSeconds * 1000,
    quoteTtlToleranceMs: target.tolerances.quoteTtlSeconds * 1000,
    webhooks: !!target.gate.triggers.configureWebhook,
    rails: !!partners.gate?.rails && !!target.gate.triggers.createSignedQuote,
    payIn: !!target.gate.triggers.payInBody,
    expireSignedQuote: !!target.gate.triggers.expireSignedQuote,
    ...(target.timing.signedQuoteLifetimeSeconds ? { signedQuoteLifetimeMs: target.timing.signedQuoteLifetimeSeconds * 1000 } : {}),
  };
}

export function contextOf(target: Profile, tag: string): ExploreContext {
  const p = target.pools;
  return {
    sessionBody: { amount: '10.00', currency: 'EUR', return_url: 'https://example.test/return', ...(target.gate.sessionDefaults ?? {}) },
    ...(target.gate.customerTemplate ? { customerTemplate: target.gate.customerTemplate as Record<string, unknown> } : {}),
    ...(p?.quote
      ? {
          pools: {
            pool: p.pools.main,
            quote: { side: 'on_ramp', ...Object.fromEntries(Object.entries(p.quote).filter(([k]) => k !== '$comment')) },
            ttlSeconds: POOLS_LIMITS.quoteTtlSeconds,
            ttlToleranceSeconds: target.tolerances.quoteTtlSeconds,
          },
        }
      : {}),
    tag,
    frontiers: new Map(),
    made: new Map(),
  };
}

/** The target's retries: conformance's (src/runner/run.ts CLIENT_RETRY). */
const TARGET_RETRY = { maxRetries: 3, baseDelayMs: 300, maxDelayMs: 3_000 };
/** The oracle on loopback answers every request: a retry would only hide rampart's own defect. */
const NO_RETRY = { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 };

export interface SideOptions {
  pacer?: Pacer;
  /** The pools requests' pacer (announced pauses only: the pools request-rate limits are not shown). */
  poolsPacer?: Pacer;
  clocks?: TargetClocks;
  signal?: AbortSignal;
}

/** One side's clients for the partners, by name, in its own profile. */
export function sideOf(profile: Profile, side: Side, partners: ExplorePartners, opts: SideOptions = {}): SideClients {
  const limits = clientLimits(profile.harness);
  const gp = partners.gate && profile.gate.partners.find((p) => p.name === partners.gate!.name);
  const pp = partners.pools && profile.pools?.partners.find((p) => p.name === partners.pools!.name);
  const make = (service: 'gate' | 'pools', baseUrl: string, label: string, secretKey: string, publishableKey?: string): ApiClient =>
    createApiClient({
      service,
      baseUrl,
      label: `${label} (explore ${side})`,
      secretKey,
      ...(publishableKey ? { publishableKey } : {}),
      ...limits,
      // Only the target is paced: the oracle is the embedded reference on loopback, its rate limits off.
      ...(side === 'target' && service === 'gate' && opts.pacer ? { pacer: opts.pacer } : {}),
      ...(side === 'target' && service === 'pools' && opts.poolsPacer ? { pacer: opts.poolsPacer } : {}),
      ...(side === 'target' && opts.clocks ? { clock: opts.clocks[service] } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      // The target's requests follow the spec's retry rule, as conformance's do: a network error, a 429 (on pools a
      // throttle or the velocity cap) or a 5xx is sent again with bounded backoff and the same Idempotency-Key, and a
      // step is judged on the answer that came; one that never comes stops the exploration (exit 3, or 5 when limited).
      retry: side === 'target' ? TARGET_RETRY : NO_RETRY,
    });
  return {
    ...(gp
      ? {
          gate: [
            keyRotating(
              [gp.secretKey, ...(gp.extraSecretKeys ?? [])].map((key) => ({ key, client: make('gate', profile.gate.baseUrls.sandbox, gp.name, key) })),
              side === 'target' ? opts.pacer : undefined,
            ),
          ],
          ...(gp.publishableKey && gp.allowedOrigins?.length
            ? { publishable: { client: make('gate', profile.gate.baseUrls.sandbox, gp.name, gp.secretKey, gp.publishableKey), origin: gp.allowedOrigins[0]! } }
            : {}),
        }
      : {}),
    ...(pp && profile.pools ? { pools: make('pools', profile.pools.baseUrls.sandbox, pp.name, pp.secretKey) } : {}),
    triggers: {
      gate: profile.gate.triggers as SideClients['triggers']['gate'],
      pools: (profile.pools?.triggers ?? {}) as SideClients['triggers']['pools'],
    },
  };
}

/**
 * One client over a partner's keys (each its own rate-limit client): every request goes out on the key the pacer can
 * send it on soonest for its route group (round robin among equals), so a burst of creates spreads over the keys'
 * write windows instead of waiting on one. Without a pacer (the oracle), the keys in turn.
 */
function keyRotating(keys: { key: string; client: ApiClient }[], pacer?: Pacer): ApiClient {
  let turn = 0;
  const choose = (method: string, path: string): ApiClient => {
    let best = keys[turn % keys.length]!;
    if (pacer) {
      let soonest = Infinity;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[(turn + i) % keys.length]!;
        const wait = pacer.waitEstimateMs(k.key, method, path);
        if (wait < soonest) [best, soonest] = [k, wait];
      }
    }
    turn++;
    return best.client;
  };
  const first = keys[0]!.client;
  return {
    baseUrl: first.baseUrl,
    label: first.label,
    clock: first.clock,
    request: (req) => choose(req.method, req.path).request(req),
    reserve: (steps) => first.reserve(steps),
    get: (path, query, extra) => choose('GET', path).get(path, query, extra),
    post: (path, body, extra) => choose('POST', path).post(path, body, extra),
    patch: (path, body, extra) => choose('PATCH', path).patch(path, body, extra),
    delete: (path, extra) => choose('DELETE', path).delete(path, extra),
  };
}

/** The lanes of an exploration: each planned lane's partner on both sides, its capabilities, context and budget. */
export function lanesFrom(
  target: Profile,
  oracle: Profile,
  plans: readonly LanePlan[],
  budgets: readonly number[],
  tag: string,
  opts: { target?: SideOptions; oracle?: SideOptions } = {},
): Lane[] {
  return plans.map((plan, i) => {
    const partners: ExplorePartners = plan.gate ? { gate: plan.gate } : { pools: plan.pools! };
    return {
      plan,
      sides: { target: sideOf(target, 'target', partners, opts.target), oracle: sideOf(oracle, 'oracle', partners, opts.oracle) },
      can: capabilitiesOf(target, partners, plan.service),
      // Each lane its own lists' frontiers (its partner's lists are its own).
      context: contextOf(target, tag),
      budget: budgets[i]!,
    };
  });
}
