// The sandbox trigger that puts a pool, as the acting partner sees it, into a
// state: unavailable for one of the documented reasons, or available again.
// The partner must be held alone while the pool is changed (poolsExclusive).
import { defineNeed, type PoolsActor, type TriggerResult } from '../define.js';
import { runTrigger } from '../support/triggers.js';

export type PoolStateName = 'available' | 'pool_dry' | 'engine_unavailable' | 'rate_unavailable';
export type SetPoolState = (poolId: string, state: PoolStateName, actor: PoolsActor) => Promise<TriggerResult>;

declare module '../../model/needs.js' {
  interface NeedRegistry {
    poolsPoolState: SetPoolState;
  }
}

export default defineNeed({
  name: 'poolsPoolState',
  description: 'a sandbox trigger that makes a pool unavailable for a documented reason, and available again',
  missing: (profile) =>
    profile.pools?.triggers.poolState
      ? null
      : 'pools.triggers.poolState is missing (a sandbox control putting a pool into pool_dry, engine_unavailable, rate_unavailable or available for the acting partner)',
  setup: (env) => (poolId, state, actor) =>
    runTrigger(env, 'pools', 'poolState', env.profile.pools!.triggers.poolState!, actor, { poolId, state, partner: actor.partner.name }),
});
