// One side of a race: the target (the check's own clients, paced and recorded by the runner) or one fresh oracle
// world (the embedded reference on loopback, unpaced), each holding the same partners by name with its own sandbox
// triggers. Every request a side sends outside the burst (the setup before it, the reads after it) is kept in order:
// the steps of a finding.
import { createApiClient } from '../client/http.js';
import { clientLimits } from '../client/limits.js';
import type { ApiClient, ApiRequest, Exchange } from '../client/types.js';
import type { TriggerResult } from '../needs/define.js';
import { sendWith } from '../needs/support/triggers.js';
import type { GatePartner, PoolsPartner, Profile } from '../profile/schema.js';

export type Service = 'gate' | 'pools';

/** A request a side sent outside the burst, with what it was for. */
export interface SideStep {
  label: string;
  exchange: Exchange;
}

export interface RaceSide {
  readonly name: 'target' | 'oracle';
  readonly profile: Profile;
  /** The family's partner on this side, by service. */
  client(service: Service): ApiClient;
  /** One request of the setup or of the reads after the burst, kept as a step. */
  send(label: string, service: Service, req: ApiRequest): Promise<Exchange>;
  /** A sandbox trigger with this side's own template (undefined when its profile declares none), kept as a step. */
  trigger(service: Service, name: string, vars: Record<string, string>): Promise<TriggerResult | undefined>;
  readonly steps: SideStep[];
  /** The family's partner of a service, as this side's profile holds it (its declared caps, its name). */
  gatePartner(): GatePartner;
  poolsPartner(): PoolsPartner;
}

/** A side over the given clients and the side profile's own triggers. */
export function raceSide(name: RaceSide['name'], profile: Profile, clients: Partial<Record<Service, ApiClient>>, partners: RacePartners): RaceSide {
  const steps: SideStep[] = [];
  const client = (service: Service): ApiClient => {
    const c = clients[service];
    if (!c) throw new Error(`no ${service} partner on the ${name} side of this race`);
    return c;
  };
  const named = <P extends { name: string }>(all: readonly P[] | undefined, want: string | undefined, what: string): P => {
    const p = all?.find((x) => x.name === want);
    if (!p) throw new Error(`the ${name} side of this race holds no ${what} partner ${want ?? '(none named)'}`);
    return p;
  };
  return {
    name,
    profile,
    client,
    steps,
    gatePartner: () => named(profile.gate.partners, partners.gate, 'Gate'),
    poolsPartner: () => named(profile.pools?.partners, partners.pools, 'pools'),
    async send(label, service, req) {
      const exchange = await client(service).request(req);
      steps.push({ label, exchange });
      return exchange;
    },
    async trigger(service, trigger, vars) {
      const triggers = (service === 'gate' ? profile.gate.triggers : (profile.pools?.triggers ?? {})) as Record<string, unknown>;
      const tpl = triggers[trigger] as Parameters<typeof sendWith>[1] | undefined;
      if (!tpl) return undefined;
      // A template names its base (gate or pools); the family's partner of that base sends it.
      const base = (tpl as { base?: Service }).base ?? service;
      const partner = (base === 'gate' ? partners.gate : partners.pools) ?? '';
      const result = await sendWith(client(base), tpl, { partner, ...vars });
      steps.push({ label: `${trigger} (the sandbox's trigger)`, exchange: result.exchange });
      return result;
    },
  };
}

/** The partners a race acts as, by name: the same names hold on the target and in every oracle world. */
export interface RacePartners {
  gate?: string;
  pools?: string;
}

/** The oracle side of one fresh world: the family's partners from the world's profile, unpaced and never retried (loopback). */
export function oracleSide(profile: Profile, partners: RacePartners, signal?: AbortSignal): RaceSide {
  const limits = clientLimits(profile.harness);
  const make = (service: Service, baseUrl: string, name: string, secretKey: string): ApiClient =>
    createApiClient({
      service,
      baseUrl,
      label: `${name} (races oracle)`,
      secretKey,
      ...limits,
      ...(signal ? { signal } : {}),
      retry: { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 },
    });
  const gp = partners.gate ? profile.gate.partners.find((p) => p.name === partners.gate) : undefined;
  const pp = partners.pools ? profile.pools?.partners.find((p) => p.name === partners.pools) : undefined;
  if (partners.gate && !gp) throw new Error(`the oracle holds no Gate partner ${partners.gate}`);
  if (partners.pools && !pp) throw new Error(`the oracle holds no pools partner ${partners.pools}`);
  return raceSide(
    'oracle',
    profile,
    {
      ...(gp ? { gate: make('gate', profile.gate.baseUrls.sandbox, gp.name, gp.secretKey) } : {}),
      ...(pp && profile.pools ? { pools: make('pools', profile.pools.baseUrls.sandbox, pp.name, pp.secretKey) } : {}),
    },
    partners,
  );
}
