// A funded pools partner that also holds a publishable key: a check that trades with the partner's secret
// key and then tries its publishable key on the same objects needs both on one partner (any partner with a
// publishable key would do for discovery alone, but an unfunded one cannot make the trade).
import { defineNeed, type PoolsActor } from '../define.js';
import { fundedPools, leasePools } from '../support/lease.js';

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsFundedPublishable: PoolsActor;
  }
}

const fits = (p: Parameters<typeof fundedPools>[0]) => fundedPools(p) && !!p.publishableKey;

export default defineNeed({
  name: 'poolsFundedPublishable',
  description: 'a funded pools partner (no velocity cap, balance gate on) with a publishable key',
  missing: (profile) =>
    profile.pools?.partners.some(fits) ? null : 'no funded pools partner (state funded, no velocity cap, balance gate on) has a publishableKey',
  setup: (env) => leasePools(env, 'funded-publishable', fits),
});
