// Leasing partners for a check: the least busy partner that fits, reused when
// the check already holds one that fits (unless it must be another tenant),
// released when the check ends. Exclusive leases (a check that programs the
// receiver or adds toxics for a whole partner) wait, as harness time, for a
// partner no other check holds.
import type { GatePartner, PoolsPartner } from '../../profile/schema.js';
import { CheckSkipped } from '../../runner/expect.js';
import type { PartnerPool } from '../../runner/partners.js';
import type { GateActor, NeedEnv, PoolsActor } from '../define.js';

/** How long a check waits for a partner it must hold alone (harness time: never counted against the target). */
export const EXCLUSIVE_WAIT_MS = 600_000;

export interface LeaseOptions<P> {
  /** Must be a partner this check does not hold yet (another tenant). */
  distinct?: boolean;
  /** Partners to prefer among those that fit. */
  prefer?: (p: P) => boolean;
  /** No other check may hold the partner while this one runs. */
  exclusive?: boolean;
}

/**
 * A late check reads state the others built up (a full first page): it goes to
 * the partner with the most traffic so far, where that state is already there.
 */
function rankFor(env: NeedEnv): ((p: { name: string }) => number) | undefined {
  if (!env.check.late) return undefined;
  const activity = env.run.activity;
  const max = Math.max(1, ...activity.values());
  return (p) => 1 - (activity.get(p.name) ?? 0) / max;
}

/**
 * The key a check uses for a Gate partner with several (extraSecretKeys): the least busy, each key
 * being its own rate-limit client. The actor's partner carries that key as its secretKey; it stays
 * the same tenant (same name), so a check that needs another tenant never gets a second key of it.
 */
export function leastBusyKey(env: NeedEnv, p: GatePartner): string {
  const keys = [p.secretKey, ...(p.extraSecretKeys ?? [])];
  let best = p.secretKey;
  for (const k of keys) if (env.run.pacer.pressure(k) < env.run.pacer.pressure(best)) best = k;
  return best;
}

function actorFor<P extends GatePartner | PoolsPartner>(env: NeedEnv, service: 'gate' | 'pools', p: P): GateActor | PoolsActor {
  const map = (service === 'gate' ? env.gateActors : env.poolsActors) as Map<string, GateActor | PoolsActor>;
  let a = map.get(p.name);
  if (!a) {
    const base = service === 'gate' ? env.profile.gate.baseUrls.sandbox : env.profile.pools!.baseUrls.sandbox;
    const key = service === 'gate' ? leastBusyKey(env, p as GatePartner) : p.secretKey;
    // The partner's other keys stay at hand (extraSecretKeys), so a check may use any of them.
    const all = [p.secretKey, ...((p as GatePartner).extraSecretKeys ?? [])];
    const partner = key === p.secretKey ? p : { ...p, secretKey: key, extraSecretKeys: all.filter((k) => k !== key) };
    a = { partner, client: env.client(service, base, p.name, key, p.publishableKey) } as GateActor | PoolsActor;
    map.set(p.name, a);
  }
  return a;
}

async function lease<P extends GatePartner | PoolsPartner>(
  env: NeedEnv,
  service: 'gate' | 'pools',
  pool: PartnerPool<P>,
  what: string,
  filter: (p: P) => boolean,
  opts: LeaseOptions<P>,
): Promise<GateActor | PoolsActor> {
  const held = (service === 'gate' ? env.gateActors : env.poolsActors) as Map<string, GateActor | PoolsActor>;
  if (!opts.distinct && !opts.exclusive) {
    const existing = [...held.values()].find((a) => filter(a.partner as P));
    if (existing) return existing;
  }
  if (!pool.any(filter)) throw new CheckSkipped(`the profile has no ${what} ${service} partner`);
  const exclude = new Set(held.keys());
  if (!pool.any((x) => filter(x) && !exclude.has(x.name)))
    throw new CheckSkipped(`the profile has no ${what} ${service} partner other than the one this check already holds`);
  const rank = rankFor(env);
  const first = pool.lease(filter, exclude, opts.prefer, { exclusive: opts.exclusive, rank });
  if (first) {
    env.onRelease(() => pool.release(first.name));
    env.held(`${service}:${first.name}`, !!opts.exclusive);
    return actorFor(env, service, first);
  }
  // Every partner that fits is held alone by another check, or is being drained for one: wait for
  // a turn (rampart's own wait, never the target's). An exclusive waiter holds new shared leases back.
  const undo = opts.exclusive ? pool.intend(pool.all.filter((x) => filter(x) && !exclude.has(x.name)).map((x) => x.name)) : () => undefined;
  const deadline = Date.now() + EXCLUSIVE_WAIT_MS;
  const wait = async (): Promise<P> => {
    try {
      for (;;) {
        const p = pool.lease(filter, exclude, opts.prefer, { exclusive: opts.exclusive, rank });
        if (p) return p;
        if (Date.now() > deadline || env.signal.aborted)
          throw new CheckSkipped(`no ${what} ${service} partner came free for this check within ${EXCLUSIVE_WAIT_MS / 1000} s — add partners to the profile`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      undo();
    }
  };
  const p = await env.budget.harness(`a ${what} ${service} partner ${opts.exclusive ? 'no other check holds' : 'free of an exclusive hold'}`, wait());
  env.onRelease(() => pool.release(p.name));
  env.held(`${service}:${p.name}`, !!opts.exclusive);
  return actorFor(env, service, p);
}

/**
 * A Gate partner. One the profile declares brandingUnset goes only to a lease that asks for it (opts.brandingUnset):
 * every other check is kept off it, so nothing rampart sends ever sets one of its branding tokens.
 */
export function leaseGate(
  env: NeedEnv,
  what: string,
  filter: (p: GatePartner) => boolean,
  opts: LeaseOptions<GatePartner> & { brandingUnset?: boolean } = {},
): Promise<GateActor> {
  const fits = (p: GatePartner) => filter(p) && (!p.brandingUnset || opts.brandingUnset === true);
  return lease(env, 'gate', env.run.gatePartners, what, fits, opts) as Promise<GateActor>;
}

export function leasePools(env: NeedEnv, what: string, filter: (p: PoolsPartner) => boolean, opts: LeaseOptions<PoolsPartner> = {}): Promise<PoolsActor> {
  if (!env.profile.pools) throw new CheckSkipped('the profile has no pools section');
  return lease(env, 'pools', env.run.poolsPartners, what, filter, opts) as Promise<PoolsActor>;
}

/** Partners of the pools kind the funded checks use: funded, no velocity cap, balance gate on. */
export const fundedPools = (p: PoolsPartner) => p.state === 'funded' && !p.velocityCap && p.balanceGate;
